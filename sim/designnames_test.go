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

// designNameAllowed lists the places outside a design's own folders that
// name a design, as `file "literal"` or `file identifier`, each with its
// reason. The list only shrinks but for a new design, which adds its lines
// of the list of designs: its two sides' imports and the values taken from
// them in designs/designs.go, its simulator side's in sim/simtest/designs.go.
var designNameAllowed = map[string]string{
	// The list of designs: an entry is a design's two sides, as values of
	// its packages.
	`designs/designs.go "github.com/lockscope/lockscope/sim/zookeeper"`:     "the list of designs (the simulator side's package)",
	`designs/designs.go "github.com/lockscope/lockscope/widgets/zookeeper"`: "the list of designs (the window side's package)",
	`designs/designs.go zookeeper`:                                          "the list of designs (zookeeper.Mode, the simulator side)",
	`designs/designs.go zookeepertab`:                                       "the list of designs (zookeepertab.Tab, the window side)",
	`designs/designs.go "github.com/lockscope/lockscope/sim/redlock"`:       "the list of designs (the simulator side's package)",
	`designs/designs.go "github.com/lockscope/lockscope/widgets/redlock"`:   "the list of designs (the window side's package)",
	`designs/designs.go redlock`:                                            "the list of designs (redlock.Mode, the simulator side)",
	`designs/designs.go redlocktab`:                                         "the list of designs (redlocktab.Tab, the window side)",
	`designs/designs.go "github.com/lockscope/lockscope/sim/etcd"`:          "the list of designs (the simulator side's package)",
	`designs/designs.go "github.com/lockscope/lockscope/widgets/etcd"`:      "the list of designs (the window side's package)",
	`designs/designs.go etcd`:                                               "the list of designs (etcd.Mode, the simulator side)",
	`designs/designs.go etcdtab`:                                            "the list of designs (etcdtab.Tab, the window side)",
	`designs/designs.go "github.com/lockscope/lockscope/sim/redis"`:         "the list of designs (the simulator side's package)",
	`designs/designs.go "github.com/lockscope/lockscope/widgets/redis"`:     "the list of designs (the window side's package)",
	`designs/designs.go redis`:                                              "the list of designs (redis.Mode, the simulator side)",
	`designs/designs.go redistab`:                                           "the list of designs (redistab.Tab, the window side)",
	`designs/designs.go "github.com/lockscope/lockscope/sim/dynamodb"`:      "the list of designs (the simulator side's package)",
	`designs/designs.go "github.com/lockscope/lockscope/widgets/dynamodb"`:  "the list of designs (the window side's package)",
	`designs/designs.go dynamodb`:                                           "the list of designs (dynamodb.Mode, the simulator side)",
	`designs/designs.go dynamodbtab`:                                        "the list of designs (dynamodbtab.Tab, the window side)",

	`designs/designs.go "github.com/lockscope/lockscope/sim/kubernetes"`:     "the list of designs (the simulator side's package)",
	`designs/designs.go "github.com/lockscope/lockscope/widgets/kubernetes"`: "the list of designs (the window side's package)",
	`designs/designs.go kubernetes`:                                          "the list of designs (kubernetes.Mode, the simulator side)",
	`designs/designs.go kubernetestab`:                                       "the list of designs (kubernetestab.Tab, the window side)",

	// The simulator sides for the tests that cannot link the window, held
	// to the list by a test of package designs.
	`sim/simtest/designs.go "github.com/lockscope/lockscope/sim/zookeeper"`: "the simulator sides for tests (the design's package)",
	`sim/simtest/designs.go zookeeper`:                                      "the simulator sides for tests (zookeeper.Mode)",
	`sim/simtest/designs.go "github.com/lockscope/lockscope/sim/redlock"`:   "the simulator sides for tests (the design's package)",
	`sim/simtest/designs.go redlock`:                                        "the simulator sides for tests (redlock.Mode)",
	`sim/simtest/designs.go "github.com/lockscope/lockscope/sim/etcd"`:      "the simulator sides for tests (the design's package)",
	`sim/simtest/designs.go etcd`:                                           "the simulator sides for tests (etcd.Mode)",
	`sim/simtest/designs.go "github.com/lockscope/lockscope/sim/redis"`:     "the simulator sides for tests (the design's package)",
	`sim/simtest/designs.go redis`:                                          "the simulator sides for tests (redis.Mode)",
	`sim/simtest/designs.go "github.com/lockscope/lockscope/sim/dynamodb"`:  "the simulator sides for tests (the design's package)",
	`sim/simtest/designs.go dynamodb`:                                       "the simulator sides for tests (dynamodb.Mode)",

	`sim/simtest/designs.go "github.com/lockscope/lockscope/sim/kubernetes"`: "the simulator sides for tests (the design's package)",
	`sim/simtest/designs.go kubernetes`:                                      "the simulator sides for tests (kubernetes.Mode)",
}

// ownDesignFile says which design's own file rel is, "" for none: a file
// in one of the design's folders, sim/<design>/ (its simulation) or
// widgets/<design>/ (its state picture and its tab).
func ownDesignFile(rel string, designs map[string]bool) string {
	parts := strings.Split(rel, "/")
	if len(parts) >= 3 && (parts[0] == "sim" || parts[0] == "widgets") && designs[parts[1]] {
		return parts[1]
	}
	return ""
}

// designNamesOutside lists every place a non-test Go file of the
// repository outside a design's own folders names a design: a string
// literal (an import path among them) as `file "literal"`, an identifier
// (a package's name or alias, a type, a variable, a field) as `file name`,
// each holding one of names anywhere, in any case ("redis",
// "report.redlockNoToken", "Redisson", etcdsim, redlockModeTab). Comments
// do not count. It also says how many files it read.
func designNamesOutside(t *testing.T, root string, names []string) ([]string, int) {
	designs := map[string]bool{}
	for _, n := range names {
		designs[n] = true
	}
	var found []string
	scanned := eachProductionGoFile(t, root, func(rel string, _ *token.FileSet, f *ast.File) {
		if ownDesignFile(rel, designs) == "" {
			found = append(found, namesIn(rel, f, names)...)
		}
	})
	sort.Strings(found)
	return found, scanned
}

// namesIn lists the string literals and identifiers of f that hold one of
// names in any case, as `rel "literal"` (each one) and `rel identifier`
// (each name once).
func namesIn(rel string, f *ast.File, names []string) []string {
	var out []string
	naming := func(s string) bool {
		low := strings.ToLower(s)
		for _, name := range names {
			if strings.Contains(low, name) {
				return true
			}
		}
		return false
	}
	idents := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && naming(v) {
				out = append(out, rel+" "+strconv.Quote(v))
			}
		case *ast.Ident:
			if naming(n.Name) && !idents[n.Name] {
				idents[n.Name] = true
				out = append(out, rel+" "+n.Name)
			}
		}
		return true
	})
	return out
}

// TestNoDesignNamesOutsideTheDesigns fails when a non-test Go file outside
// a design's own folders (sim/<design>/, widgets/<design>/) names a design
// in a string literal, an import or an identifier (issue 15's "done
// when"): the rest of the program asks the design (sim.Traits, the mode's
// own words, its registered tab) or lists the registered ones, so adding a
// design edits no other file. The allow-list holds the registration lines
// and what names a design without being its knowledge; it only shrinks.
func TestNoDesignNamesOutsideTheDesigns(t *testing.T) {
	found, scanned := designNamesOutside(t, "..", sim.ModeNames())
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
// in an import path, a package's alias or any identifier; it skips
// comments, and leaves out the designs' own folders.
func TestDesignNamesIn(t *testing.T) {
	src := `package x

import (
	"fmt"

	etcdsim "github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/widgets/redlock"
)

// A comment may say redis, etcd and ZooKeeper.
var order = []string{"redis", "other"}
var key = "report.redlockNoToken"

type zkTab struct{ holder string }

func f() string { return "a ZooKeeper session" + ` + "`etcd`" + ` + fmt.Sprint(etcdsim.EtcdPrefix, redlock.NewVoteTally()) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{
		`app/x.go "github.com/lockscope/lockscope/sim/etcd"`, `app/x.go "github.com/lockscope/lockscope/widgets/redlock"`,
		`app/x.go etcdsim`, `app/x.go "redis"`, `app/x.go "report.redlockNoToken"`, `app/x.go "a ZooKeeper session"`,
		`app/x.go "etcd"`, `app/x.go EtcdPrefix`, `app/x.go redlock`,
	}, namesIn("app/x.go", f, []string{"redis", "redlock", "zookeeper", "etcd"}))
	designs := map[string]bool{"redis": true, "etcd": true}
	for rel, own := range map[string]string{
		"sim/etcd/raft.go": "etcd", "widgets/redis/keys.go": "redis", "widgets/etcd/tab.go": "etcd", "sim/etcd/x/y.go": "etcd",
		"sim/etcd.go": "", "sim/etcd_raft.go": "", "app/redis.go": "", "widgets/etcd.go": "", "app/etcd/tab.go": "",
		"app/etcd_lease.go": "", "sim/storage.go": "", "sim/breaker/etcd.go": "", "cmd/lockscope/redis.go": "",
		"designs/designs.go": "", "sim/simtest/designs.go": "",
	} {
		assert.Equal(t, own, ownDesignFile(rel, designs), rel)
	}
}
