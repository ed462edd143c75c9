package sim_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// designNameAllowed lists the string literals outside a design's own files
// that name a design, as `file "literal"`, each with its reason. The list
// only shrinks: a new design adds its registration line in sim/designs.
var designNameAllowed = map[string]string{
	// Registration: a design in a folder of its own is one import here.
	`sim/designs/designs.go "github.com/lockscope/lockscope/sim/zookeeper"`: "registration (the design's package)",
	`sim/designs/designs.go "github.com/lockscope/lockscope/sim/redlock"`:   "registration (the design's package)",
	`sim/designs/designs.go "github.com/lockscope/lockscope/sim/etcd"`:      "registration (the design's package)",
	`sim/designs/designs.go "github.com/lockscope/lockscope/sim/redis"`:     "registration (the design's package)",
	// The window's registration: a design's window folder is one import here.
	`widgets/designs/designs.go "github.com/lockscope/lockscope/widgets/zookeeper"`: "registration (the design's window folder)",
	`widgets/designs/designs.go "github.com/lockscope/lockscope/widgets/redlock"`:   "registration (the design's window folder)",
	`widgets/designs/designs.go "github.com/lockscope/lockscope/widgets/etcd"`:      "registration (the design's window folder)",
	`widgets/designs/designs.go "github.com/lockscope/lockscope/widgets/redis"`:     "registration (the design's window folder)",
	// The field's gloss names the client library whose option it is, not
	// the design (whose name the refusal takes from the designs' Traits).
	`sim/fields.go "only for %s (go-redis's ContextTimeoutEnabled)"`: "go-redis is a library",
}

// ownDesignFile says which design's own file rel is, "" for none: a file
// in the design's folder (sim/zookeeper/, and widgets/zookeeper/ or
// app/zookeeper/ when they exist), or one of its files in the shared
// folders: its part of the simulator (sim/etcd.go and its parts
// sim/etcd_*.go), its tab (app/etcd.go) and its picture (widgets/etcd.go).
func ownDesignFile(rel string, designs map[string]bool) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 3 && (parts[0] == "sim" || parts[0] == "app" || parts[0] == "widgets") && designs[parts[1]] {
		return parts[1]
	}
	if len(parts) != 2 {
		return ""
	}
	base := strings.TrimSuffix(parts[1], ".go")
	switch parts[0] {
	case "sim":
		base, _, _ = strings.Cut(base, "_")
	case "app", "widgets":
	default:
		return ""
	}
	if designs[base] {
		return base
	}
	return ""
}

// designNamesInLiterals lists, as `file "literal"`, every string literal
// of the repository's non-test Go files outside a design's own files that
// names a design: holds one of names anywhere, in any case ("redis",
// "report.redlockNoToken", "Redisson"). It also says how many files it
// read.
func designNamesInLiterals(t *testing.T, root string, names []string) ([]string, int) {
	designs := map[string]bool{}
	for _, n := range names {
		designs[n] = true
	}
	var found []string
	scanned := eachProductionGoFile(t, root, func(rel string, _ *token.FileSet, f *ast.File) {
		if ownDesignFile(rel, designs) == "" {
			found = append(found, literalsNaming(rel, f, names)...)
		}
	})
	sort.Strings(found)
	return found, scanned
}

// literalsNaming lists the string literals of f that hold one of names in
// any case, as `rel "literal"`.
func literalsNaming(rel string, f *ast.File, names []string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		low := strings.ToLower(v)
		for _, name := range names {
			if strings.Contains(low, name) {
				out = append(out, rel+" "+strconv.Quote(v))
				break
			}
		}
		return true
	})
	return out
}

// TestNoDesignNamesOutsideTheDesigns fails when a non-test Go file outside
// a design's own files has a string literal naming a design (issue 15's
// "done when"): the rest of the program asks the design (sim.Traits, the
// mode's own words) or lists the registered ones, so adding a design
// edits no other file. The allow-list holds the registration and what
// names a design without being its knowledge; it only shrinks.
func TestNoDesignNamesOutsideTheDesigns(t *testing.T) {
	found, scanned := designNamesInLiterals(t, "..", sim.ModeNames())
	require.Greater(t, scanned, 50, "the walk reaches the repository's Go files")
	var leaks []string
	seen := map[string]bool{}
	for _, f := range found {
		seen[f] = true
		if _, ok := designNameAllowed[f]; !ok {
			if len(f) > 120 { // a usage text: enough to find it
				f = f[:120] + "…"
			}
			leaks = append(leaks, f)
		}
	}
	assert.Empty(t, leaks, "ask the design (sim.Traits, its own words) instead of naming it")
	for k := range designNameAllowed {
		assert.True(t, seen[k], "%s is allowed but gone: take it off designNameAllowed", k)
	}
}

// The scan finds a design named in any case, inside a key or a sentence,
// and leaves out a design's own files.
func TestDesignNamesInLiterals(t *testing.T) {
	src := `package x

var order = []string{"redis", "other"}
var key = "report.redlockNoToken"

func f() string { return "a ZooKeeper session" + ` + "`etcd`" + ` }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{`app/x.go "redis"`, `app/x.go "report.redlockNoToken"`, `app/x.go "a ZooKeeper session"`, `app/x.go "etcd"`},
		literalsNaming("app/x.go", f, []string{"redis", "redlock", "zookeeper", "etcd"}))
	designs := map[string]bool{"redis": true, "etcd": true}
	for rel, own := range map[string]string{
		"sim/etcd.go": "etcd", "sim/etcd_raft.go": "etcd", "app/redis.go": "redis", "widgets/etcd.go": "etcd",
		"sim/etcd/raft.go": "etcd", "widgets/redis/keys.go": "redis",
		"app/etcd_lease.go": "", "sim/storage.go": "", "sim/breaker/etcd.go": "", "cmd/lockscope/redis.go": "",
		"sim/designs/designs.go": "", "sim/etcd/x/y.go": "etcd",
	} {
		assert.Equal(t, own, ownDesignFile(rel, designs), rel)
	}
}
