package zookeeper

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSequentialNamesAsFmtAndStrconvWroteAndReadThem: the znode names,
// their numbers and the protected-mode guid are what fmt wrote and
// strconv read before the faster helpers, for the names the servers make
// and for names they never make.
func TestSequentialNamesAsFmtAndStrconvWroteAndReadThem(t *testing.T) {
	prefix := "_c_0b1c2d3e-4f50-4a6b-8c7d-8e9fa0b1c2d3-" + LockName
	for _, seq := range []int64{0, 7, 42, 999999999, 1000000000, 9999999999, 12345678901, -1, -42} {
		assert.Equal(t, prefix+fmt.Sprintf("%010d", seq), zkSeqName(prefix, seq))
	}
	for _, name := range []string{
		prefix + "0000000012", prefix + "9999999999", "lock-0000000003", LockName,
		"lock-00000x0012", "lock-12", "lock-+000000012", "lock--000000012", "lock-lock-0000000001",
		"lock-0000000001lock-0000000002", "x0000000012", "", "lock-99999999999999999999",
	} {
		assert.Equal(t, zkSeqParsed(name), zkSeqOf(name), name) // zkSeqParsed is the old zkSeqOf
	}
	b := []byte{0x0b, 0x1c, 0x2d, 0x3e, 0x4f, 0x50, 0x4a, 0x6b, 0x8c, 0x7d, 0x8e, 0x9f, 0xa0, 0xb1, 0xc2, 0xd3}
	assert.Equal(t, fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), formatUUID(b))
	assert.Equal(t, []string{"b-lock-0000000001", "a-lock-0000000002", "c-lock-0000000002"},
		zkSortChildren([]string{"a-lock-0000000002", "other", "b-lock-0000000001", "c-lock-0000000002"}))
}
