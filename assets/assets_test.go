package assets

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// A preset's mode is what its file declares, whatever its name suggests.
func TestPresetModeComesFromTheFile(t *testing.T) {
	fsys := fstest.MapFS{
		"presets/redis-looks-like-redis.lockscope.json": {Data: []byte(`{"mode":"etcd"}`)},
		"presets/a-redis.lockscope.json":                {Data: []byte(`{"mode":"redis"}`)},
		"presets/b-zk.lockscope.json":                   {Data: []byte(`{"mode":"zookeeper"}`)},
		"presets/no-mode.lockscope.json":                {Data: []byte(`{"ttl":"1s"}`)},
		"presets/broken.lockscope.json":                 {Data: []byte(`{`)},
	}
	modes := readModes(fsys)
	assert.Equal(t, map[string]string{
		"redis-looks-like-redis": "etcd",
		"a-redis":                "redis",
		"b-zk":                   "zookeeper",
		"no-mode":                "",
		"broken":                 "",
	}, modes)
	// Grouped in the order of sim.ModeNames(), presets of no known mode last.
	assert.Equal(t, []string{"a-redis", "b-zk", "redis-looks-like-redis", "broken", "no-mode"},
		presetNames(fsys, modes))
}

// Every bundled preset declares one of the simulator's modes, and
// PresetsFor splits PresetNames by it without losing or repeating one.
func TestEveryPresetDeclaresAKnownMode(t *testing.T) {
	var all []string
	for _, mode := range sim.ModeNames() {
		for _, name := range PresetsFor(mode) {
			sc, err := Preset(name)
			require.NoError(t, err)
			assert.Equal(t, mode, sc.Mode, name)
			all = append(all, name)
		}
	}
	assert.Equal(t, PresetNames(), all)
}
