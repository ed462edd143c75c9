package widgets

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// The client box's state line says what the holder's library makes of
// its re-entry, in both languages: Redisson's hold count and Curator's
// lockCount inside the nested section, etcd's Mutex that counts nothing
// and whose inner Unlock deleted its key; outside it, plain "holding".
func TestClientBoxSaysTheReentry(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	tests := []struct {
		preset string
		at     time.Duration
		en, zh string
	}{
		{"redis-reentrant", time.Second, "holding the lock", "持有锁"},
		{"redis-reentrant", 3 * time.Second, "holding the lock, re-entered: count 2", "持有锁，已重入：计数 2"},
		{"redis-reentrant", 5 * time.Second, "holding the lock", "持有锁"},
		{"zk-reentrant", 3 * time.Second, "holding the lock, re-entered: count 2", "持有锁，已重入：计数 2"},
		{"etcd-reentrant", 3 * time.Second, "holding the lock: re-entered, no count kept", "持有锁：已重入，不计数"},
		{"etcd-reentrant", 5 * time.Second, "holding the lock: its key deleted by the inner Unlock", "持有锁：键已被内层 Unlock 删除"},
		{"zk-read-write", 1500 * time.Millisecond, "holding the read lock", "持有读锁"},
		{"zk-read-write", 4 * time.Second, "waiting for the lock", "等待锁"},
	}
	for _, tt := range tests {
		t.Run(tt.preset+"@"+tt.at.String(), func(t *testing.T) {
			rec, err := sim.Record(simtest.Preset(t, tt.preset, nil))
			require.NoError(t, err)
			var c1 sim.NodeView
			for _, n := range rec.At(tt.at).Nodes {
				if n.Name == "client-1" {
					c1 = n
				}
			}
			require.True(t, c1.Client)
			i18n.Set(i18n.English)
			assert.Equal(t, tt.en, nodeLines(c1)[1])
			i18n.Set(i18n.Chinese)
			assert.Equal(t, tt.zh, nodeLines(c1)[1])
		})
	}
}
