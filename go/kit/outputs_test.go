package kit

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteOutputsOfTheMLP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.f32")
	if err := WriteOutputs(path, [][]byte{floatSamples(1.5, -2)[0].Bytes}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := []byte{0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0}
	if !bytes.Equal(got, want) {
		t.Fatalf("got % x", got)
	}
}

func TestWriteInt64s(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.i64")
	if err := WriteInt64s(path, []int64{1, -1, 1 << 40}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if len(got) != 24 || binary.LittleEndian.Uint64(got) != 1 ||
		int64(binary.LittleEndian.Uint64(got[8:])) != -1 || binary.LittleEndian.Uint64(got[16:]) != 1<<40 {
		t.Fatalf("got % x", got)
	}
}

func TestWriteEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.f32")
	if err := WriteOutputs(path, nil); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("%v %v", info, err)
	}
}

func TestUnwritableOutputsNameTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "o.f32")
	data := requireData(t, WriteOutputs(path, [][]byte{{1, 2, 3, 4}}))
	if data.Path != path {
		t.Fatalf("got %v", data)
	}
	requireData(t, WriteInt64s(path, []int64{1}))
}
