// Command font cuts the Chinese font the window bundles down to the
// characters LockScope shows: every character of the translations
// (translations/*.json: the Chinese, and signs such as ✓ in either), of
// the presets' Chinese captions, of the languages' own names and of the
// signs app/ and widgets/ write themselves, that Fyne's default font
// lacks. Fyne's font draws
// the rest (Latin, digits, most punctuation), so mixed text keeps one
// Latin face whatever the language.
//
// The source is Noto Sans CJK SC (SIL Open Font License 1.1) from Debian's
// fonts-noto-cjk, cut with pyftsubset from Debian's fonttools:
//
//	apt-get install fonts-noto-cjk fonttools
//	go generate ./assets
//
// It writes fonts/NotoSansCJKsc-{Regular,Bold}-subset.otf and
// fonts/OFL.txt. Run it again after adding Chinese text: a test in package
// app fails while a character has no glyph.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"

	"github.com/lockscope/lockscope/assets/i18n"
)

// Family is the face taken from the collection: simplified Chinese glyph
// shapes.
const Family = "Noto Sans CJK SC"

// The Debian files the subset is made from.
var (
	sources = map[string]string{
		"Regular": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
		"Bold":    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
	}
	copyrightFile = "/usr/share/doc/fonts-noto-cjk/copyright"
)

func main() {
	if err := run("."); err != nil {
		fmt.Fprintln(os.Stderr, "font:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	text, err := Needed(dir)
	if err != nil {
		return err
	}
	missing, err := notInFyne(text)
	if err != nil {
		return err
	}
	list := filepath.Join(os.TempDir(), "lockscope-font-chars.txt")
	if err := os.WriteFile(list, []byte(string(missing)), 0o644); err != nil {
		return err
	}
	defer os.Remove(list)
	if err := os.MkdirAll(filepath.Join(dir, "fonts"), 0o755); err != nil {
		return err
	}
	var notice string
	for _, weight := range []string{"Regular", "Bold"} {
		src := sources[weight]
		index, copyright, err := faceIndex(src)
		if err != nil {
			return err
		}
		notice = copyright
		out := filepath.Join(dir, "fonts", "NotoSansCJKsc-"+weight+"-subset.otf")
		cmd := exec.Command("pyftsubset", src,
			fmt.Sprintf("--font-number=%d", index),
			"--text-file="+list,
			"--output-file="+out,
			"--no-hinting",
			"--layout-features=kern,palt,locl,ccmp,liga",
			"--name-IDs=0,1,2,3,4,5,6,13,14")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("pyftsubset %s: %w (apt-get install fonttools fonts-noto-cjk)", src, err)
		}
		if err := matchMetrics(out); err != nil {
			return err
		}
		st, err := os.Stat(out)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %d characters, %d bytes\n", out, len([]rune(string(missing))), st.Size())
	}
	return writeLicence(filepath.Join(dir, "fonts", "OFL.txt"), notice)
}

// SourceSigns is every non-ASCII character of the string and rune
// literals of the Go files (tests aside) in dir.
func SourceSigns(dir string) (string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return "", err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && (lit.Kind == token.STRING || lit.Kind == token.CHAR) {
				v := lit.Value
				if lit.Kind == token.STRING {
					v, _ = strconv.Unquote(v)
				}
				for _, r := range v {
					if r >= 0x80 {
						b.WriteRune(r)
					}
				}
			}
			return true
		})
	}
	return b.String(), nil
}

// metricsScript gives the subset the vertical metrics and space width of
// Fyne's text font (argv[1]). The shaper keeps a space in the run of the
// character before it, so the subset needs a space glyph; Fyne measures a
// line's height on the first font with a space, so with equal metrics a
// line is as tall and a space as wide as without the subset.
const metricsScript = `
import sys
from fontTools.ttLib import TTFont
ref, f = TTFont(sys.argv[1]), TTFont(sys.argv[2])
k = f["head"].unitsPerEm / ref["head"].unitsPerEm
for table, names in (("hhea", ("ascent", "descent", "lineGap")),
                     ("OS/2", ("sTypoAscender", "sTypoDescender", "sTypoLineGap", "usWinAscent", "usWinDescent"))):
    for n in names:
        setattr(f[table], n, round(getattr(ref[table], n) * k))
use_typo = 1 << 7
f["OS/2"].fsSelection = (f["OS/2"].fsSelection & ~use_typo) | (ref["OS/2"].fsSelection & use_typo)
space = ref["hmtx"][ref.getBestCmap()[0x20]][0]
cmap = f.getBestCmap()
for cp in (0x20, 0xA0):
    if cp in cmap:
        f["hmtx"][cmap[cp]] = (round(space * k), f["hmtx"][cmap[cp]][1])
f.save(sys.argv[2])
`

// matchMetrics runs metricsScript on a subset with the Python that runs
// pyftsubset (its fontTools).
func matchMetrics(path string) error {
	ref := filepath.Join(os.TempDir(), "lockscope-fyne-text-font.ttf")
	if err := os.WriteFile(ref, theme.DefaultTextFont().Content(), 0o644); err != nil {
		return err
	}
	defer os.Remove(ref)
	python, err := fontToolsPython()
	if err != nil {
		return err
	}
	cmd := exec.Command(python, "-c", metricsScript, ref, path)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("matching %s's metrics to Fyne's font: %w", path, err)
	}
	return nil
}

// fontToolsPython is the interpreter on pyftsubset's #! line.
func fontToolsPython() (string, error) {
	path, err := exec.LookPath("pyftsubset")
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return "", fmt.Errorf("%s: no #! line", path)
	}
	if filepath.Base(fields[0]) == "env" && len(fields) > 1 {
		return fields[1], nil
	}
	return fields[0], nil
}

// Needed is every character the translations and captions may draw, sorted.
func Needed(dir string) ([]rune, error) {
	set := map[rune]bool{}
	add := func(s string) {
		for _, r := range s {
			set[r] = true
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "translations", "*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var words map[string]string
		if err := json.Unmarshal(b, &words); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, v := range words {
			add(v)
		}
	}
	presets, err := filepath.Glob(filepath.Join(dir, "presets", "*.lockscope.json"))
	if err != nil {
		return nil, err
	}
	for _, p := range presets {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var sc struct {
			Captions []struct {
				Zh string `json:"zh"`
			} `json:"captions"`
		}
		if err := json.Unmarshal(b, &sc); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, c := range sc.Captions {
			add(c.Zh)
		}
	}
	for _, l := range i18n.Langs {
		add(l.Name())
	}
	// The signs the widgets and the window write themselves (✓, ⇅, ┼, …).
	for _, pkg := range []string{"app", "widgets"} {
		signs, err := SourceSigns(filepath.Join(dir, "..", pkg))
		if err != nil {
			return nil, err
		}
		add(signs)
	}
	var out []rune
	for r := range set {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// notInFyne drops ASCII but the space, and whatever both of Fyne's
// default text fonts (regular and bold) already draw.
func notInFyne(text []rune) ([]rune, error) {
	var faces []*font.Face
	for _, res := range []fyne.Resource{theme.DefaultTextFont(), theme.DefaultTextBoldFont()} {
		f, err := font.ParseTTF(bytes.NewReader(res.Content()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", res.Name(), err)
		}
		faces = append(faces, f)
	}
	// Spaces always: the shaper keeps a space in the run before it.
	out := []rune{' ', '\u00a0'}
	for _, r := range text {
		if r < 0x80 || r == '\n' || r == '\u00a0' {
			continue
		}
		covered := true
		for _, f := range faces {
			if _, ok := f.NominalGlyph(r); !ok {
				covered = false
			}
		}
		if !covered {
			out = append(out, r)
		}
	}
	return out, nil
}

// notice is the font's copyright (its name ID 0) and the reserved name of
// the upstream licence file.
const notice = "Noto Sans CJK: © 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'."

// faceIndex finds Family in a collection, with its copyright notice.
func faceIndex(path string) (int, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", fmt.Errorf("%w (apt-get install fonts-noto-cjk)", err)
	}
	defer f.Close()
	faces, err := font.ParseTTC(f)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", path, err)
	}
	for i, face := range faces {
		if face.Describe().Family == Family {
			return i, notice, nil
		}
	}
	return 0, "", fmt.Errorf("%s: no %q face", path, Family)
}

// writeLicence copies the SIL Open Font License text of Debian's copyright
// file next to the subset, as the licence asks of every copy.
func writeLicence(path, notice string) error {
	b, err := os.ReadFile(copyrightFile)
	if err != nil {
		return err
	}
	// The last "License: SIL-1.1" stanza is the text; the first only names it.
	i := strings.LastIndex(string(b), "\nLicense: SIL-1.1\n")
	if i < 0 {
		return fmt.Errorf("%s: no SIL-1.1 licence text", copyrightFile)
	}
	body := string(b[i+len("\nLicense: SIL-1.1\n"):])
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		if l != "" && l[0] != ' ' {
			break // the next paragraph
		}
		l = strings.TrimPrefix(l, " ")
		if l == "." {
			l = ""
		}
		lines = append(lines, l)
	}
	head := "The fonts in this directory are subsets of Noto Sans CJK SC (Regular and Bold),\n" +
		"cut by assets/gen/font from Debian's fonts-noto-cjk. They are Modified Versions\n" +
		"under the licence below and keep the original names and notices.\n\n" + notice + "\n\n"
	return os.WriteFile(path, []byte(head+strings.TrimSpace(strings.Join(lines, "\n"))+"\n"), 0o644)
}
