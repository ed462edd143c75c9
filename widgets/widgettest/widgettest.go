// Package widgettest holds what the widgets' tests share across packages
// (package widgets and each design's window folder, widgets/<design>/): a
// bundled preset recorded, its snapshot at an instant, the texts a
// renderer shows, the lookup switched to Chinese for a test, and the
// checks every picture of a snapshot passes (it draws the same snapshot
// once; in Chinese it draws no English sentence). Imported by
// tests only; it imports no widget package, so package widgets' own
// tests can use it too.
package widgettest

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// RecordPreset records a bundled preset, closed when the test ends.
func RecordPreset(t testing.TB, name string) *sim.Recording {
	t.Helper()
	sc, err := simtest.Load(name)
	require.NoError(t, err)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	t.Cleanup(func() { rec.Close() })
	return rec
}

// SnapshotAt is a bundled preset's snapshot at instant at.
func SnapshotAt(t testing.TB, preset string, at time.Duration) *sim.Snapshot {
	t.Helper()
	return RecordPreset(t, preset).At(at)
}

// CrowdSnapshotAt is a bundled preset's snapshot at instant at, the run
// made with clients clients: a crowd for a picture's short box.
func CrowdSnapshotAt(t testing.TB, preset string, clients int, at time.Duration) *sim.Snapshot {
	t.Helper()
	sc, err := simtest.Load(preset)
	require.NoError(t, err)
	sc.Clients = clients
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	t.Cleanup(func() { rec.Close() })
	return rec.At(at)
}

// InShortBox draws snap in pic in a box of size, checks that nothing it
// draws ends below the box (over the notes under a state picture), and
// returns the texts it shows.
func InShortBox(t *testing.T, pic Picture, size fyne.Size, snap *sim.Snapshot) []string {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, pic)
	w.Resize(size.AddWidthHeight(16, 16))
	pic.Resize(size)
	pic.SetSnapshot(snap)
	objs := test.TempWidgetRenderer(t, pic).Objects()
	for _, o := range objs {
		if o.Visible() {
			assert.LessOrEqual(t, o.Position().Y+o.Size().Height, size.Height+0.5, "%T", o)
		}
	}
	return Texts(objs)
}

// Texts lists the visible texts among a renderer's objects.
func Texts(objs []fyne.CanvasObject) []string {
	var out []string
	for _, o := range objs {
		if t, ok := o.(*canvas.Text); ok && t.Visible() {
			out = append(out, t.Text)
		}
	}
	return out
}

// InChinese switches the lookup to Chinese for the rest of the test.
func InChinese(t testing.TB) {
	t.Helper()
	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
}

// Picture is a widget drawn from a snapshot (the cluster view, a design's
// state picture).
type Picture interface {
	fyne.Widget
	SetSnapshot(s *sim.Snapshot)
}

// AssertDrawsEachSnapshotOnce checks that pic, showing a preset's instant,
// draws nothing when handed the same snapshot again and draws the next
// frame's instant once; refreshes counts the renderer's redraws.
func AssertDrawsEachSnapshotOnce(t *testing.T, preset string, pic Picture, refreshes func(fyne.WidgetRenderer) int) {
	t.Helper()
	test.NewTempApp(t)
	rec := RecordPreset(t, preset)
	w := test.NewTempWindow(t, pic)
	w.Resize(fyne.NewSize(560, 360))
	snap := rec.At(time.Second)
	pic.SetSnapshot(snap)
	r := test.TempWidgetRenderer(t, pic)
	before := refreshes(r)
	require.Positive(t, before)
	pic.SetSnapshot(snap)
	pic.SetSnapshot(snap)
	assert.Equal(t, before, refreshes(r), "the same snapshot again redraws nothing")
	pic.SetSnapshot(rec.At(time.Second + 33*time.Millisecond))
	assert.Equal(t, before+1, refreshes(r), "the next frame's instant is drawn")
}

// ChineseCase is a preset's instant and the translated sentences that must
// show at it.
type ChineseCase struct {
	Preset string
	At     time.Duration
	Want   []string
}

// AssertShownInChinese checks, for each case, that the pictures made by
// pics show the case's sentences in a Chinese window and none of the
// English ones: the nodes' details and what english adds (a design's own
// notes).
func AssertShownInChinese(t *testing.T, cases []ChineseCase, pics func() []Picture, english func(*sim.Snapshot) []string) {
	for _, tc := range cases {
		t.Run(tc.Preset, func(t *testing.T) {
			test.NewTempApp(t)
			InChinese(t)
			snap := SnapshotAt(t, tc.Preset, tc.At)
			var shown []string
			for _, p := range pics() {
				w := test.NewTempWindow(t, p)
				w.Resize(fyne.NewSize(1400, 600))
				p.SetSnapshot(snap)
				shown = append(shown, Texts(test.TempWidgetRenderer(t, p).Objects())...)
			}
			joined := strings.Join(shown, "\n")
			for _, s := range tc.Want {
				assert.Contains(t, joined, s)
			}
			var sentences []string
			for _, n := range snap.Nodes {
				sentences = append(sentences, n.Detail)
			}
			for _, e := range append(sentences, english(snap)...) {
				if e == "" || strings.HasPrefix(e, "epoch ") { // "epoch N · zxid" reads the same in both
					continue
				}
				for _, s := range shown {
					assert.NotContains(t, s, strings.TrimPrefix(e, "SUSPENDED "), "the English sentence is drawn")
				}
			}
		})
	}
}

// AssertResizeLaysOutWithoutRebuilding checks that pic, showing a preset's
// instant, moves its objects when resized without working out its model
// again (Fyne's idiom: Refresh rebuilds and recolours, Layout only
// places); builds counts the renderer's model builds.
func AssertResizeLaysOutWithoutRebuilding(t *testing.T, preset string, at time.Duration, pic Picture, builds func(fyne.WidgetRenderer) int) {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, pic)
	w.Resize(fyne.NewSize(560, 360))
	pic.SetSnapshot(SnapshotAt(t, preset, at))
	r := test.TempWidgetRenderer(t, pic)
	AssertResizeOnlyLaysOut(t, pic, func() int { return builds(r) }, fyne.NewSize(900, 520))
}

// AssertResizeOnlyLaysOut checks that w, on show with what it draws, moves
// its objects when resized to size without building its model again
// (Fyne's idiom: Refresh builds the model and takes the theme, Layout only
// places); builds counts the model builds, which must have happened once.
func AssertResizeOnlyLaysOut(t *testing.T, w fyne.Widget, builds func() int, size fyne.Size) {
	t.Helper()
	r := test.TempWidgetRenderer(t, w)
	before := builds()
	require.Positive(t, before)
	placed := func() (out []fyne.Position) {
		for _, o := range r.Objects() {
			if o.Visible() {
				out = append(out, o.Position().Add(fyne.NewPos(o.Size().Width, o.Size().Height)))
			}
		}
		return out
	}
	small := placed()
	w.Resize(size)
	assert.Equal(t, before, builds(), "a resize builds no model")
	assert.NotEqual(t, small, placed(), "a resize lays the objects out again")
}

// DrawnPicture is a state picture that says how tall it draws
// (designtab.Drawn).
type DrawnPicture interface {
	Picture
	DrawnHeight(size fyne.Size) float32
}

// AssertDrawnHeight checks that pic, showing a preset's instant in a box
// width wide and tall enough, says it draws less than the box and draws
// nothing lower than it says (the notes under it go there), and that in a
// box half that high it says it fills the box.
func AssertDrawnHeight(t *testing.T, preset string, at time.Duration, pic DrawnPicture, width float32) {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, pic)
	tall := fyne.NewSize(width, 900)
	w.Resize(tall.AddWidthHeight(16, 16))
	pic.Resize(tall)
	pic.SetSnapshot(SnapshotAt(t, preset, at))
	drawn := pic.DrawnHeight(tall)
	require.Positive(t, drawn, "%s at %v", preset, at)
	require.Less(t, drawn, tall.Height, "%s at %v: a tall box has room left under the picture", preset, at)
	for _, o := range test.TempWidgetRenderer(t, pic).Objects() {
		if o.Visible() {
			assert.LessOrEqual(t, o.Position().Y+o.Size().Height, drawn+1, "%s at %v: %T drawn below the height said", preset, at, o)
		}
	}
	short := fyne.NewSize(width, drawn/2)
	assert.Equal(t, short.Height, pic.DrawnHeight(short), "%s at %v: a box half as high is filled", preset, at)
}
