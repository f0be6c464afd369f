package dev.callbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contract 6's paced rounds: the schedule, the waits, the slots. */
class PacingTest {
    @TempDir
    Path dir;

    private Path schedule(String name, long... offsets) throws Exception {
        ByteBuffer bytes = ByteBuffer.allocate(8 * offsets.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long offset : offsets) {
            bytes.putLong(offset);
        }
        Path path = dir.resolve(name);
        Files.write(path, bytes.array());
        return path;
    }

    @Test
    void aBadScheduleIsADataErrorNamingItsFile() throws Exception {
        Path odd = dir.resolve("odd.i64");
        Files.write(odd, new byte[12]);
        Map<Path, String> cases = Map.of(
                dir.resolve("none.i64"), "cannot read the schedule",
                odd, "12 bytes is not",
                schedule("back.i64", 5, 3), "non-decreasing",
                schedule("neg.i64", -1, 3), "non-negative");
        for (var each : cases.entrySet()) {
            DataException e = assertThrows(DataException.class, () -> Pacing.readSchedule(each.getKey()));
            assertEquals(each.getKey(), e.path());
            assertTrue(e.problem().contains(each.getValue()), e.problem());
        }
        assertArrayEquals(new long[] {0, 0, 7}, Pacing.readSchedule(schedule("ok.i64", 0, 0, 7)));
    }

    @Test
    void aStalledCallShowsInTheWaitsOfTheArrivalsBehindIt() throws Exception {
        // One caller, arrivals 1 ms apart; the call of arrival 3 sleeps 30 ms. The arrivals due
        // during it start after it ends: their wait holds the rest of the stall, their service
        // does not.
        long gap = 1_000_000;
        long stall = 30_000_000;
        int k = 20;
        long[] offsets = new long[k];
        for (int j = 0; j < k; j++) {
            offsets[j] = j * gap;
        }
        Pacing pacing = new Pacing(offsets, 1, 8);
        int[] calls = {0};
        Pacing.SlotCall call = slot -> {
            if (++calls[0] == 4) {
                Thread.sleep(stall / 1_000_000);
            }
        };
        pacing.begin(System.nanoTime() + 20_000_000); // ahead of a cold JVM's first serve
        pacing.serve(0, call);
        long[] times = pacing.times();
        assertTrue(times[0] < 0, "the caller was not waiting for the first arrival: " + times[0]);
        for (int j = 4; j < k && stall - (j - 3) * gap > 0; j++) {
            long left = stall - (j - 3) * gap;
            long started = times[k + j];
            long service = times[2 * k + j] - started;
            assertTrue(started >= left, "arrival " + j + ": started " + started + " < " + left);
            assertTrue(service < stall / 2, "arrival " + j + ": the stall in its service");
        }
        Map<String, Object> answer = pacing.answer();
        assertEquals((long) k, answer.get("calls"));
        assertEquals(8L, answer.get("slots"));
        assertArrayEquals(new long[] {k}, (long[]) answer.get("caller_calls"));
        assertEquals((long) answer.get("end_ns") - (long) answer.get("start_ns"), answer.get("ns"));
    }

    @Test
    void withoutAStartTheRoundStartsALeadAfterTheSetUp() {
        Pacing pacing = new Pacing(new long[1], 1, 1);
        pacing.begin(null);
        Map<String, Object> answer = pacing.answer();
        assertEquals(Pacing.PACED_LEAD_NS, (long) answer.get("start_ns") - (long) answer.get("ready_ns"));
    }

    @Test
    void arrivalsPastTheSlotsWrapAndTheirLastCallerOwnsEachSlot() throws Exception {
        Pacing pacing = new Pacing(new long[10], 2, 4);
        pacing.begin(null);
        List<Integer> slots = new ArrayList<>();
        pacing.serve(1, slots::add);
        assertEquals(List.of(0, 1, 2, 3, 0, 1, 2, 3, 0, 1), slots);
        assertArrayEquals(new int[] {1, 1, 1, 1}, pacing.slotCallers());
        assertArrayEquals(new long[] {0, 10}, (long[]) pacing.answer().get("caller_calls"));
    }

    @Test
    void aFailingCallEndsItsCallersServingWithTheFailure() {
        Pacing pacing = new Pacing(new long[5], 1, 5);
        pacing.begin(null);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pacing.serve(0, slot -> {
            throw new IllegalStateException("no");
        }));
        assertEquals("no", e.getMessage());
        assertArrayEquals(new long[] {0}, (long[]) pacing.answer().get("caller_calls"));
    }
}
