// Package assets holds what the program bundles, as data: the preset
// scenarios' files, the icon and the translations (and the fonts, under
// fonts/). It imports no simulator package: whoever loads a preset parses
// it (sim.ParseScenario); the "mode" each file declares is read here with
// encoding/json alone, to group and filter the presets.
package assets

import (
	"embed"
	"encoding/json"
	"io/fs"
	"sort"
	"strings"
	"sync"
)

//go:embed presets/*.lockscope.json
var presets embed.FS

const presetExt = ".lockscope.json"

// PresetNames lists every preset, grouped by mode in the order given (the
// simulator's, sim.ModeNames(), which the caller has), then by name.
func PresetNames(order []string) []string { return presetNames(presets, presetModes(), order) }

// PresetsFor lists the presets of one mode.
func PresetsFor(mode string) []string {
	modes := presetModes()
	var out []string
	for _, n := range presetNames(presets, modes, nil) {
		if modes[n] == mode {
			out = append(out, n)
		}
	}
	return out
}

// presetModes maps each preset's name to the mode its file declares in its
// own "mode" field (never a guess from the file's name), read once.
var presetModes = sync.OnceValue(func() map[string]string { return readModes(presets) })

// readModes reads the "mode" field of every preset in fsys; a preset whose
// file does not say maps to "" (parsing it then reports why).
func readModes(fsys fs.FS) map[string]string {
	entries, _ := fs.ReadDir(fsys, "presets")
	modes := make(map[string]string, len(entries))
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), presetExt)
		var head struct {
			Mode string `json:"mode"`
		}
		if b, err := fs.ReadFile(fsys, "presets/"+e.Name()); err == nil {
			_ = json.Unmarshal(b, &head)
		}
		modes[name] = head.Mode
	}
	return modes
}

// presetNames lists the presets of fsys grouped by their mode, in the order
// of order (modes it does not list after them), then by name.
func presetNames(fsys fs.FS, modes map[string]string, order []string) []string {
	entries, _ := fs.ReadDir(fsys, "presets")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), presetExt))
	}
	place := map[string]int{}
	for i, m := range order {
		place[m] = i + 1
	}
	rank := func(n string) int {
		if r, ok := place[modes[n]]; ok {
			return r
		}
		return len(place) + 1
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := rank(names[i]), rank(names[j])
		if a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	return names
}

// PresetFile is the raw .lockscope.json of a preset.
func PresetFile(name string) ([]byte, bool) {
	b, err := presets.ReadFile("presets/" + name + presetExt)
	return b, err == nil
}

//go:generate go run ./gen/icon

//go:embed icon.png
var icon []byte

// Icon is the application icon, 512×512 PNG, rendered from icon.svg.
func Icon() []byte { return icon }
