package designs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets/designtab"
	etcdtab "github.com/lockscope/lockscope/widgets/etcd"
	redistab "github.com/lockscope/lockscope/widgets/redis"
)

// Every entry of the list has both sides, of the same design, and
// installing it gives the window a tab for every design the simulator has,
// in the simulator's order.
func TestTheListIsWholeAndInstalls(t *testing.T) {
	require.NoError(t, Check(All()))
	require.NoError(t, InstallAll())
	require.NoError(t, InstallAll(), "a second call is the first's answer")
	var tabs, names []string
	for _, tab := range designtab.Tabs() {
		tabs = append(tabs, tab.Mode)
	}
	for _, d := range All() {
		names = append(names, d.Sim.Name())
	}
	assert.Equal(t, sim.ModeNames(), tabs)
	assert.ElementsMatch(t, names, sim.ModeNames())
}

// A side missing, the sides of two designs, a design twice: each is said,
// with the entry it is in, before anything is installed.
func TestCheckSaysWhatIsMissing(t *testing.T) {
	for _, tc := range []struct {
		list []Design
		want string
	}{
		{[]Design{{Sim: redis.Mode}}, "designs: entry 1 (redis) has no window side (Window, its designtab.ModeTab)"},
		{[]Design{{Sim: redis.Mode, Window: redistab.Tab}, {Window: etcdtab.Tab}}, "designs: entry 2 (etcd) has no simulator side (Sim, its sim.Mode)"},
		{[]Design{{}}, "designs: entry 1 has neither a simulator side nor a window side"},
		{[]Design{{Sim: etcd.Mode, Window: redistab.Tab}}, "designs: entry 1 has the simulator side of etcd and the window side of redis"},
		{[]Design{{Sim: redis.Mode, Window: redistab.Tab}, {Sim: redis.Mode, Window: redistab.Tab}}, "designs: redis is listed twice"},
	} {
		err := Check(tc.list)
		require.Error(t, err, tc.want)
		assert.Equal(t, tc.want, err.Error())
		assert.Equal(t, err, Install(tc.list), "Install refuses what Check does, first")
	}
}

// The simulator's tests install simtest.Modes, not this list (they cannot
// link the window): they are the list's simulator sides, in its order.
func TestSimtestHasTheListsSimulatorSides(t *testing.T) {
	var want, got []string
	for _, d := range All() {
		want = append(want, d.Sim.Name())
	}
	for _, m := range simtest.Modes() {
		got = append(got, m.Name())
	}
	assert.Equal(t, want, got)
}

// Every bundled preset parses, as the mode its file declares, which is
// one of the list's; the simulator's tests read the same files.
func TestEveryPresetParsesAsItsMode(t *testing.T) {
	require.NoError(t, InstallAll())
	var all []string
	for _, mode := range sim.ModeNames() {
		for _, name := range assets.PresetsFor(mode) {
			b, ok := assets.PresetFile(name)
			require.True(t, ok, name)
			sc, err := sim.ParseScenario(b)
			require.NoError(t, err, name)
			assert.Equal(t, mode, sc.Mode, name)
			all = append(all, name)
		}
	}
	assert.Equal(t, assets.PresetNames(sim.ModeNames()), all)
	assert.Equal(t, simtest.PresetNames(), all)
}
