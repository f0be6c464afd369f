// outputs: writing the --outputs (each output in its dtype, one after
// another) and --latencies (int64) files, little-endian raw arrays.

package kit

import (
	"encoding/binary"
	"os"
)

// WriteInt64s writes values as int64 little-endian; a DataError naming the
// file on failure.
func WriteInt64s(path string, values []int64) error {
	data := make([]byte, 8*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint64(data[8*i:], uint64(v))
	}
	return writeFile(path, data)
}

// WriteOutputs writes each output's bytes, one after another (the contract's
// order); a DataError naming the file on failure.
func WriteOutputs(path string, outputs [][]byte) error {
	var data []byte
	for _, o := range outputs {
		data = append(data, o...)
	}
	return writeFile(path, data)
}

func writeFile(path string, data []byte) error {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return Dataf(path, "cannot write: %v", unwrapPath(err))
	}
	return nil
}
