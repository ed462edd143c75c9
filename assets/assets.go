// Package assets holds what the program bundles: the preset scenarios, the
// icon and the translations. It has no Fyne import, so the simulator's
// tests and the command line can use it too.
package assets

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/lockscope/lockscope/sim"
)

//go:embed presets/*.lockscope.json
var presets embed.FS

const presetExt = ".lockscope.json"

// PresetNames lists every preset, grouped by mode in display order.
func PresetNames() []string {
	entries, _ := fs.ReadDir(presets, "presets")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), presetExt))
	}
	order := map[string]int{}
	for i, m := range sim.ModeOrder {
		order[m] = i
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := presetMode(names[i]), presetMode(names[j])
		if order[a] != order[b] {
			return order[a] < order[b]
		}
		return names[i] < names[j]
	})
	return names
}

// PresetsFor lists the presets of one mode.
func PresetsFor(mode string) []string {
	var out []string
	for _, n := range PresetNames() {
		if presetMode(n) == mode {
			out = append(out, n)
		}
	}
	return out
}

func presetMode(name string) string {
	switch {
	case strings.HasPrefix(name, "redlock-"):
		return "redlock"
	case strings.HasPrefix(name, "redis-"):
		return "redis"
	case strings.HasPrefix(name, "zk-"):
		return "zookeeper"
	case strings.HasPrefix(name, "etcd-"):
		return "etcd"
	}
	return ""
}

// PresetFile is the raw .lockscope.json of a preset.
func PresetFile(name string) ([]byte, bool) {
	b, err := presets.ReadFile("presets/" + name + presetExt)
	return b, err == nil
}

// Preset parses a preset scenario.
func Preset(name string) (*sim.Scenario, error) {
	b, ok := PresetFile(name)
	if !ok {
		return nil, fmt.Errorf("no preset named %q", name)
	}
	sc, err := sim.ParseScenario(b)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", name, err)
	}
	return sc, nil
}

//go:generate go run ./gen/icon

//go:embed icon.png
var icon []byte

// Icon is the application icon, 512×512 PNG, rendered from icon.svg.
func Icon() []byte { return icon }
