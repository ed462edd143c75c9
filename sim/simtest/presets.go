package simtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/lockscope/lockscope/sim"
)

// The presets are the bundled files, read where they lie in the source
// tree (assets/presets, beside this folder's parent's parent) rather than
// through package assets: the simulator's tests import nothing above sim.

const presetExt = ".lockscope.json"

// presetDir is assets/presets of the source tree this file is in.
var presetDir = sync.OnceValue(func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "assets", "presets")
})

// PresetFile is the raw .lockscope.json of a bundled preset.
func PresetFile(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(presetDir(), name+presetExt))
	if err != nil {
		return nil, fmt.Errorf("no preset named %q: %w", name, err)
	}
	return b, nil
}

// Load parses a bundled preset, as the window and the command line parse
// theirs (sim.ParseScenario).
func Load(name string) (*sim.Scenario, error) {
	b, err := PresetFile(name)
	if err != nil {
		return nil, err
	}
	sc, err := sim.ParseScenario(b)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", name, err)
	}
	return sc, nil
}

// presetModes maps every bundled preset's name to the mode its file
// declares, read once.
var presetModes = sync.OnceValue(func() map[string]string {
	entries, _ := os.ReadDir(presetDir())
	modes := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), presetExt) {
			continue
		}
		var head struct {
			Mode string `json:"mode"`
		}
		if b, err := os.ReadFile(filepath.Join(presetDir(), e.Name())); err == nil {
			_ = json.Unmarshal(b, &head)
		}
		modes[strings.TrimSuffix(e.Name(), presetExt)] = head.Mode
	}
	return modes
})

// PresetNames lists every bundled preset, grouped by mode in the order of
// sim.ModeNames() (modes it does not list after them), then by name: the
// order assets.PresetNames gives them when handed that order.
func PresetNames() []string {
	modes := presetModes()
	order := map[string]int{}
	for i, m := range sim.ModeNames() {
		order[m] = i + 1
	}
	rank := func(n string) int {
		if r, ok := order[modes[n]]; ok {
			return r
		}
		return len(order) + 1
	}
	names := make([]string, 0, len(modes))
	for n := range modes {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if a, b := rank(names[i]), rank(names[j]); a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	return names
}

// PresetsFor lists the bundled presets of one mode, by name.
func PresetsFor(mode string) []string {
	var out []string
	for _, n := range PresetNames() {
		if presetModes()[n] == mode {
			out = append(out, n)
		}
	}
	return out
}
