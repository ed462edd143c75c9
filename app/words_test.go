package app

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// textArgs names the calls whose arguments a person reads, with the
// indexes of those arguments: widget constructors, setters, menus,
// dialogs, and the widgets' own placeText.
var textArgs = map[string][]int{
	"NewLabel": {0}, "NewLabelWithStyle": {0}, "NewButton": {0}, "NewButtonWithIcon": {0},
	"NewCheck": {0}, "NewRichTextWithText": {0}, "NewHyperlink": {0}, "NewCard": {0, 1},
	"NewFormItem": {0}, "NewAccordionItem": {0}, "NewTabItem": {0}, "NewTabItemWithIcon": {0},
	"NewMenuItem": {0}, "NewMenu": {0}, "NewText": {0},
	"NewTipButton": {0, 4}, "NewTipCheck": {0, 3}, "NewTipSlider": {3}, "NewTipSelect": {3}, "NewPanel": {0},
	"SetText": {0}, "SetTitle": {0}, "SetTip": {0}, "SetPlaceHolder": {0}, "ShowNow": {0}, "ShowAfter": {0},
	"NewCustom": {0, 1}, "NewCustomConfirm": {0, 1, 2}, "NewConfirm": {0, 1}, "ShowConfirm": {0, 1},
	"NewInformation": {0, 1}, "ShowInformation": {0, 1}, "ShowCustom": {0, 1}, "NewCustomWithoutButtons": {0},
	"placeText": {1}, "drawMessage": {1},
}

// textFields are struct fields and properties whose string a person reads.
var textFields = map[string]bool{
	"Text": true, "PlaceHolder": true, "Title": true, "StateTitle": true, "Label": true, "Tip": true, "Detail": true,
}

// pendingFiles are sources whose words do not go through the lookup yet,
// each with the reason; the test skips them and lists them, so the list
// can only shrink.
var pendingFiles = map[string]string{}

// properNames are the same in every language.
var properNames = map[string]bool{"Redis": true, "Redlock": true, "ZooKeeper": true, "etcd": true, "DynamoDB": true, "Kubernetes": true, "LockScope": true}

// fieldsChecked elsewhere are text fields whose literals another test
// checks: a slider's or toggle's Label is its English name, which
// TestEveryControlHasWords holds equal to the translation it stands for.
// The sliders and toggles live in designtab (the shared ones) and in each
// design's own tab, where a design's rule for a shared one may set its
// Label with its words (TestEveryControlHasWords checks the tab's control
// with the rule applied).
var fieldsChecked = map[string]map[string]bool{
	"widgets/designtab/controls.go": {"Label": true},
	"widgets/redis/tab.go":          {"Label": true},
	"widgets/redlock/tab.go":        {"Label": true},
	"widgets/zookeeper/tab.go":      {"Label": true},
	"widgets/etcd/tab.go":           {"Label": true},
	"widgets/dynamodb/tab.go":       {"Label": true},
	"widgets/kubernetes/tab.go":     {"Label": true},
}

// formatVerb matches a fmt verb such as %d or %.2f, which is no word.
var formatVerb = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z%]`)

// wordy reports whether a string literal holds words: any letter outside
// fmt verbs. Marks such as "·", "•", "%", "×" and digits are the same in
// every language.
func wordy(s string) bool {
	s = formatVerb.ReplaceAllString(s, "")
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// literalWords finds the wordy string literals an expression hands over
// as they are: the literal itself, either side of a +, the format of a
// fmt.Sprintf. A literal that is a translation key is what the lookup is
// given, not shown, and passes.
func literalWords(e ast.Expr) []*ast.BasicLit {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return nil
		}
		s, err := strconv.Unquote(x.Value)
		if err != nil || !wordy(s) || i18n.Has(i18n.English, s) || keyPrefix(s) || properNames[s] {
			return nil
		}
		return []*ast.BasicLit{x}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return append(literalWords(x.X), literalWords(x.Y)...)
		}
	case *ast.ParenExpr:
		return literalWords(x.X)
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "fmt" && strings.HasPrefix(sel.Sel.Name, "Sprint") && len(x.Args) > 0 {
				return literalWords(x.Args[0])
			}
		}
	}
	return nil
}

// keyPrefix reports whether s starts keys, as in i18n.T("tab." + mode).
func keyPrefix(s string) bool {
	if !strings.HasSuffix(s, ".") {
		return false
	}
	for _, k := range i18n.Keys(i18n.English) {
		if strings.HasPrefix(k, s) {
			return true
		}
	}
	return false
}

func callName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// unlookedWords lists, file:line: text, every wordy literal that reaches
// a person without the lookup in the Go sources of dir.
func unlookedWords(t *testing.T, name, dir string) (found []string, files []string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		rel := name + "/" + filepath.Base(path)
		if _, skip := pendingFiles[rel]; skip {
			continue
		}
		files = append(files, rel)
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		report := func(lits []*ast.BasicLit) {
			for _, l := range lits {
				found = append(found, fmt.Sprintf("%s:%d: %s", rel, fset.Position(l.Pos()).Line, l.Value))
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				for _, i := range textArgs[callName(x)] {
					if i < len(x.Args) {
						report(literalWords(x.Args[i]))
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && textFields[k.Name] && !fieldsChecked[rel][k.Name] {
					report(literalWords(x.Value))
				}
			case *ast.AssignStmt:
				for i, lhs := range x.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && textFields[sel.Sel.Name] && !fieldsChecked[rel][sel.Sel.Name] && i < len(x.Rhs) {
						report(literalWords(x.Rhs[i]))
					}
				}
			}
			return true
		})
	}
	return found, files
}

// sourceDirs are the folders whose words a person reads, by their name in
// the repository: app/, widgets/ and every folder below widgets/ (the
// designs' own, designtab).
func sourceDirs(t *testing.T) map[string]string {
	t.Helper()
	dirs := map[string]string{"app": "."}
	err := filepath.WalkDir("../widgets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		dirs[filepath.ToSlash(strings.TrimPrefix(path, "../"))] = path
		return nil
	})
	require.NoError(t, err)
	return dirs
}

// No word reaches a widget without the lookup: every string literal with
// letters handed to a widget constructor, a setter, a menu, a dialog or a
// text field of app/ and widgets/ is a translation key.
func TestNoWordBypassesTheLookup(t *testing.T) {
	var all []string
	for name, dir := range sourceDirs(t) {
		found, _ := unlookedWords(t, name, dir)
		all = append(all, found...)
	}
	sort.Strings(all)
	assert.Empty(t, all, "words shown without i18n.T / i18n.F:\n%s", strings.Join(all, "\n"))
	for f, why := range pendingFiles {
		t.Logf("not checked yet: %s (%s)", f, why)
	}
}

// The check itself finds what it is meant to find.
func TestWordCheckCatchesALiteral(t *testing.T) {
	src := `package x
func f() {
	widget.NewLabel("Hello")
	widget.NewLabel("·")
	widget.NewLabel(i18n.T("menu.file"))
	b.SetText("clock " + t)
	placeText(o, fmt.Sprintf("%d holders", n), p, c)
	_ = Spec{Label: "menu.file", Tip: "A tip"}
	v.toolbar.presets.PlaceHolder = "(edited)"
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	require.NoError(t, err)
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		var lits []*ast.BasicLit
		switch x := n.(type) {
		case *ast.CallExpr:
			for _, i := range textArgs[callName(x)] {
				if i < len(x.Args) {
					lits = append(lits, literalWords(x.Args[i])...)
				}
			}
		case *ast.KeyValueExpr:
			if k, ok := x.Key.(*ast.Ident); ok && textFields[k.Name] {
				lits = literalWords(x.Value)
			}
		case *ast.AssignStmt:
			if sel, ok := x.Lhs[0].(*ast.SelectorExpr); ok && textFields[sel.Sel.Name] {
				lits = literalWords(x.Rhs[0])
			}
		}
		for _, l := range lits {
			got = append(got, l.Value)
		}
		return true
	})
	assert.Equal(t, []string{`"Hello"`, `"clock "`, `"%d holders"`, `"A tip"`, `"(edited)"`}, got)
}

// Every tab, slider, toggle and preset has its words in every language, a
// shared control with a design's own words under them in that design's
// tab; a slider's or toggle's Label is the English of its name.
func TestEveryControlHasWords(t *testing.T) {
	var missing []string
	need := func(key string) {
		for _, l := range i18n.Langs {
			if !i18n.Has(l, key) {
				missing = append(missing, fmt.Sprintf("%s: %q", l, key))
			}
		}
	}
	for _, spec := range designtab.Tabs() {
		need("tab." + spec.Mode)
		need(spec.StateTitle)
	}
	for _, tab := range designtab.Tabs() {
		for _, key := range tab.Sliders {
			spec := tab.Slider(key)
			need(spec.NameKey())
			need(spec.Tip())
			assert.Equal(t, spec.Label, i18n.In(i18n.English, spec.NameKey()), "the English name of %s's slider %s", tab.Mode, key)
		}
		for _, key := range tab.Toggles {
			spec := tab.Toggle(key)
			need(spec.NameKey())
			need(spec.Tip())
			assert.Equal(t, spec.Label, i18n.In(i18n.English, spec.NameKey()), "the English name of %s's toggle %s", tab.Mode, key)
		}
	}
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		need("preset." + name)
	}
	sort.Strings(missing)
	assert.Empty(t, missing, strings.Join(missing, "\n"))
}

// The English name of a preset is the name in its file, so the two
// cannot drift apart.
func TestPresetNamesMatchTheirFiles(t *testing.T) {
	for _, name := range assets.PresetNames(sim.ModeNames()) {
		sc, err := Preset(name)
		require.NoError(t, err)
		if i18n.Has(i18n.English, "preset."+name) {
			assert.Equal(t, sc.Name, i18n.In(i18n.English, "preset."+name), name)
		}
	}
}
