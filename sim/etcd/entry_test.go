package etcd

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/sim"
)

// TestAppendCarriesACopyOfTheEntries: a MsgApp's body holds the entries
// after PrevIndex as they were when it was sent, whatever the leader's log
// does while it is in flight (a new leader truncates and overwrites it).
func TestAppendCarriesACopyOfTheEntries(t *testing.T) {
	var log sim.Chunked[etcdEntry]
	log.Append(etcdEntry{Term: 1, Type: entNoop, Client: sim.None, Origin: sim.None})
	log.Append(etcdEntry{Term: 1, Type: entGrant, N: 10, Client: 0, Origin: 1, Req: 1})
	log.Append(etcdEntry{Term: 1, Type: entLock, Key: "/locks/mylock/1", Lease: 7, Client: 0, Origin: 1, Req: 2})
	want := []etcdEntry{log.At(1), log.At(2)}

	none := newAppend(&log, 1, 3, 1, 3)
	one := newAppend(&log, 1, 2, 1, 2)
	two := newAppend(&log, 1, 1, 1, 1)
	log.Truncate(1)
	log.Append(etcdEntry{Term: 2, Type: entNoop, Client: sim.None, Origin: sim.None})
	log.Append(etcdEntry{Term: 2, Type: entRevoke, Lease: 7, N: 1, Client: 0, Origin: 2})

	assert.Empty(t, none.Entries, "a commit's news carries no entry")
	assert.Equal(t, &appendEntries{Term: 1, PrevIndex: 3, PrevTerm: 1, Commit: 3}, none)
	assert.Equal(t, want[1:], one.Entries)
	assert.Equal(t, int64(2), one.PrevIndex)
	assert.Equal(t, want, two.Entries)
	assert.Equal(t, int64(1), two.Commit)
}
