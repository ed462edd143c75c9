package assets

import (
	"slices"
	"sort"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	// Grouped in the order given, presets of no mode it lists last.
	assert.Equal(t, []string{"a-redis", "b-zk", "redis-looks-like-redis", "broken", "no-mode"},
		presetNames(fsys, modes, []string{"redis", "zookeeper", "etcd"}))
	assert.Equal(t, []string{"redis-looks-like-redis", "a-redis", "b-zk", "broken", "no-mode"},
		presetNames(fsys, modes, []string{"etcd"}))
}

// Every bundled preset declares a mode, and PresetsFor splits PresetNames
// by it without losing or repeating one. (That the mode is one of the
// simulator's and the file parses is package designs' test: assets knows
// no simulator.)
func TestEveryPresetDeclaresAMode(t *testing.T) {
	var order []string
	for name, mode := range presetModes() {
		require.NotEmpty(t, mode, name)
		if !slices.Contains(order, mode) {
			order = append(order, mode)
		}
	}
	sort.Strings(order)
	var all []string
	for _, mode := range order {
		all = append(all, PresetsFor(mode)...)
	}
	assert.Equal(t, PresetNames(order), all)
}
