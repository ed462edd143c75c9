package sim_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// coreFolders are the core of the program: the folders whose files name
// no design and no design's setting (its options, sim.Option), so that a
// new design, or a new setting of one, edits none of them (ARCHITECTURE.md,
// "Adding a design"). A design's own folders (sim/<design>/,
// widgets/<design>/), the list of designs (designs/) and the simulator
// sides the tests install (sim/simtest) are not the core.
var coreFolders = []string{"sim", "app", "widgets", "widgets/designtab", "cmd/lockscope"}

// coreSettingAllowed lists what names a design's setting in a core file
// without being that setting, as `file "literal"` or `file identifier`,
// each with its reason. It only shrinks.
var coreSettingAllowed = map[string]string{
	`sim/scenario.go "want at least one group of nodes"`: "English: a partition's groups are of nodes, not the nodes setting",
	// The run's nodes, not the scenario's number of servers: Sim.Nodes,
	// Snapshot.Nodes, the cluster view's nodes.
	"* Nodes": "the run's nodes (Sim.Nodes, Snapshot.Nodes)",
	"* nodes": "the run's nodes (a list of them)",
}

// coreWords are keys of a design's setting that are also a word of the
// core's own, used everywhere for something else, which the scan cannot
// tell apart from the setting: it leaves them out, each with its reason.
var coreWords = map[string]string{
	"client": "the run's clients (Sim.Client, client-1, the checker's and the report's client): Redis's option of that key (issue 31) is read only through its declaration",
}

// coreFiles lists the core's non-test Go files, relative to root (the
// repository), with slashes.
func coreFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, dir := range coreFolders {
		files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
		require.NoError(t, err)
		n := 0
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			rel, err := filepath.Rel(root, f)
			require.NoError(t, err)
			out = append(out, filepath.ToSlash(rel))
			n++
		}
		require.NotZero(t, n, "%s has Go files", dir)
	}
	sort.Strings(out)
	return out
}

// designSettings are the keys of every registered design's options.
func designSettings() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range sim.ModeNames() {
		for _, o := range sim.OptionsOf(m) {
			if !seen[o.Key] {
				seen[o.Key] = true
				out = append(out, o.Key)
			}
		}
	}
	return out
}

// settingsIn lists the string literals of f that hold one of keys as a
// word of their own (a member's name, a translation key's part:
// "nodes", "param.herd", "herd=true", "clients or nodes"), as `rel
// "literal"`, and the identifiers that are one of keys in any case
// (Herd, preVote), as `rel identifier`, each once. Comments do not count.
func settingsIn(rel string, f *ast.File, keys []string) []string {
	key := map[string]bool{}
	lower := map[string]bool{}
	for _, k := range keys {
		key[k] = true
		lower[strings.ToLower(k)] = true
	}
	var out []string
	idents := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			v, err := strconv.Unquote(n.Value)
			if err != nil || n.Kind != token.STRING {
				return true
			}
			for _, w := range strings.FieldsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				if key[w] {
					out = append(out, rel+" "+strconv.Quote(v))
					break
				}
			}
		case *ast.Ident:
			if lower[strings.ToLower(n.Name)] && !idents[n.Name] {
				idents[n.Name] = true
				out = append(out, rel+" "+n.Name)
			}
		}
		return true
	})
	return out
}

// TestCoreNamesNoDesignNorItsSettings is issue 30's proof: it lists the
// core's files (coreFolders) and fails when one names a design (its name
// in a literal or an identifier, as TestNoDesignNamesOutsideTheDesigns
// finds it) or one of a design's settings (the key of an option a design
// declares, in a literal or as an identifier). The core asks the designs'
// declarations instead (sim.Traits, sim.OptionsOf).
func TestCoreNamesNoDesignNorItsSettings(t *testing.T) {
	files := coreFiles(t, "..")
	require.Greater(t, len(files), 60, "the core's files are found")
	keys := designSettings()
	require.Contains(t, keys, "herd", "the designs' settings are found")
	for k := range coreWords {
		require.Contains(t, keys, k, "%s is no design's setting any more: take it off coreWords", k)
	}
	keys = slices.DeleteFunc(keys, func(k string) bool { _, ok := coreWords[k]; return ok })
	fset := token.NewFileSet()
	var found []string
	seen := map[string]bool{}
	for _, rel := range files {
		src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(rel)))
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, rel, src, 0)
		require.NoError(t, err, rel)
		found = append(found, namesIn(rel, f, sim.ModeNames())...)
		for _, s := range settingsIn(rel, f, keys) {
			_, name, _ := strings.Cut(s, " ")
			if _, ok := coreSettingAllowed[s]; ok {
				seen[s] = true
			} else if _, ok := coreSettingAllowed["* "+name]; ok {
				seen["* "+name] = true
			} else {
				found = append(found, s)
			}
		}
	}
	assert.Empty(t, found, "a core file names a design or one of its settings: ask the design (sim.Traits, sim.OptionsOf) instead")
	for k := range coreSettingAllowed {
		assert.True(t, seen[k], "%s is allowed but gone: take it off coreSettingAllowed", k)
	}

	// And the scenario has no member of its own for a design's setting:
	// its design's options hold them (Scenario.Options).
	typ := reflect.TypeOf(sim.Scenario{})
	for i := range typ.NumField() {
		name := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
		for _, k := range keys {
			assert.NotEqual(t, strings.ToLower(k), strings.ToLower(typ.Field(i).Name), "Scenario.%s is a design's setting", typ.Field(i).Name)
			assert.NotEqual(t, k, name, "Scenario.%s is a design's setting", typ.Field(i).Name)
		}
	}
}

// The scan finds a setting's key as a literal, inside a translation key
// or a usage text and as an identifier in any case; it skips comments and
// words that only contain a key.
func TestSettingsIn(t *testing.T) {
	src := `package x

// A comment may say herd and preVote.
var keys = []string{"herd", "param.preVote", "clients or nodes", "toggle.zkHerd", "herding"}

func f(sc *Scenario) bool { return sc.PreVote || replica }
`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.ParseComments)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{
		`app/x.go "herd"`, `app/x.go "param.preVote"`, `app/x.go "clients or nodes"`,
		`app/x.go PreVote`, `app/x.go replica`,
	}, settingsIn("app/x.go", f, []string{"herd", "preVote", "nodes", "replica"}))
}
