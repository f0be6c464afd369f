package dev.callbench.drivers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.callbench.DataException;
import dev.callbench.Dtype;
import dev.callbench.Signature;
import dev.callbench.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signature a traced program's TorchScript carries as an extra file, read from the archive. */
class TorchScriptSignatureTest {
    @TempDir
    Path dir;

    /** A TorchScript-shaped archive: entries under its own folder, the extra file if given. */
    private Path archive(String signature) throws IOException {
        Path path = dir.resolve("mlp_torchscript.pt");
        try (OutputStream file = Files.newOutputStream(path);
                ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry("archive/data.pkl"));
            zip.write(new byte[] {1, 2, 3});
            if (signature != null) {
                zip.putNextEntry(new ZipEntry("archive/extra/" + TorchScriptSignature.FILE));
                zip.write(signature.getBytes(StandardCharsets.UTF_8));
            }
        }
        return path;
    }

    @Test
    void theLinesGiveEachTensorInOrder() throws Exception {
        Signature read = TorchScriptSignature.read(archive("callbench.input.0 board float32 8 8 8\n"
                + "callbench.output.1 tanh float32 1\ncallbench.output.0 linear float32 64\n"));
        assertEquals(List.of(new Tensor("board", Dtype.FLOAT32, new long[] {8, 8, 8})), read.inputs());
        assertEquals(List.of(new Tensor("linear", Dtype.FLOAT32, new long[] {64}),
                new Tensor("tanh", Dtype.FLOAT32, new long[] {1})), read.outputs());
    }

    @Test
    void aFileWithoutOneIsOurMlp() throws Exception {
        Signature read = TorchScriptSignature.read(archive(null));
        assertEquals(List.of(new Tensor("x", Dtype.FLOAT32, new long[] {2})), read.inputs());
        assertEquals(List.of(new Tensor("y", Dtype.FLOAT32, new long[] {1})), read.outputs());
    }

    @Test
    void aBadLineIsADataErrorNamingTheFile() throws Exception {
        Path path = archive("callbench.input.0 x complex64 2\ncallbench.output.0 y float32 1\n");
        DataException e = assertThrows(DataException.class, () -> TorchScriptSignature.read(path));
        assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("callbench.input.0 is 'x complex64 2'"), e.getMessage());
        Path sized = archive("callbench.input.0 x float32 two\ncallbench.output.0 y float32 1\n");
        assertTrue(assertThrows(DataException.class, () -> TorchScriptSignature.read(sized))
                .getMessage().contains("has size 'two'"));
        Path noOutput = archive("callbench.input.0 x float32 2\n");
        assertTrue(assertThrows(DataException.class, () -> TorchScriptSignature.read(noOutput))
                .getMessage().contains("names no input or no output"));
    }

    @Test
    void aFileThatIsNoArchiveIsADataError() throws Exception {
        Path path = Files.writeString(dir.resolve("mlp_torchscript.pt"), "not a zip");
        assertTrue(assertThrows(DataException.class, () -> TorchScriptSignature.read(path))
                .getMessage().contains("is not a TorchScript archive"));
    }
}
