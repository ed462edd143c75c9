package app

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// PictureSize is the layout size, in window points, of a picture whose
// size nobody chose: the window's default size.
var PictureSize = DefaultSize

// PictureScale is the pixels per point of an exported picture: 2 keeps
// the text sharp when the PNG is shown on a page or a slide.
const PictureScale = 2

// PictureTheme is the theme of pictures made without a window (lockscope
// shot): LockScope's theme held to light, whatever the desktop prefers, so
// a picture is the same on every machine. Its fonts are the window's in
// either language: with Fyne's fonts alone a sign only Fyne's symbol font
// has (the ↑ of Sentinel's promotion) takes the space after it into the
// symbol font's run, which has no space, and comes out as "↑�".
func PictureTheme() fyne.Theme {
	return &Theme{Choice: ThemeLight}
}

// RenderScenario records a scenario and draws its tab at instant at, as
// the window shows it plus a caption naming the scenario, mode,
// parameters and time: what `lockscope shot` writes. size is the layout in
// points and scale the pixels per point. A Fyne app must be current (the
// window's, or test.NewApp() without a display).
func RenderScenario(sc *sim.Scenario, origin string, at time.Duration, size fyne.Size, scale float32) (image.Image, error) {
	return RenderScenarioReporting(sc, origin, at, size, scale, nil)
}

// RenderScenarioReporting is RenderScenario telling progress how far the
// recording is (nil: silently).
func RenderScenarioReporting(sc *sim.Scenario, origin string, at time.Duration, size fyne.Size, scale float32,
	progress func(at, end time.Duration) bool) (image.Image, error) {
	c := NewController(sc.Mode)
	c.SetProgress(progress)
	defer c.Close()
	if err := c.Load(sc, origin); err != nil {
		return nil, err
	}
	c.Seek(at)
	return RenderController(c, size, scale)
}

// RenderController draws a controller's instant into an image from a
// fresh widget tree (NewPictures), never from the window on screen: the
// GL canvas's capture is empty under some drivers, and the picture must
// not depend on what the window happens to show. It uses Fyne's software
// renderer and the current app's theme.
func RenderController(c *Controller, size fyne.Size, scale float32) (image.Image, error) {
	if fyne.CurrentApp() == nil {
		return nil, errors.New("picture: no Fyne app to render with")
	}
	if c == nil || !c.Loaded() {
		return nil, errors.New("picture: nothing loaded")
	}
	spec, ok := tabFor(c.Mode())
	if !ok {
		return nil, fmt.Errorf("picture: no tab for mode %q", c.Mode())
	}
	if size.Width < 200 || size.Height < 200 {
		return nil, fmt.Errorf("picture: %v×%v points is too small (want at least 200×200)", size.Width, size.Height)
	}
	if scale <= 0 || scale > 8 {
		return nil, fmt.Errorf("picture: scale %v, want more than 0 and at most 8", scale)
	}
	view := *c // same recording and cursor; the copy's caches are its own
	view.playing = false
	pics := NewPictures(spec)
	pics.ShowRun(&view)
	pics.Show(&view)
	head := PictureCaption(spec, &view)
	content := container.NewBorder(head, nil, nil, nil, pics.Content())

	cv := software.NewCanvas()
	cv.SetPadded(true)
	cv.SetScale(scale)
	cv.SetContent(content)
	cv.Resize(size)
	return cv.Capture(), nil
}

// EncodePNG writes an image as PNG bytes.
func EncodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// tabFor is the tab spec of a mode.
func tabFor(mode string) (designtab.ModeTab, bool) {
	for _, t := range designtab.Tabs() {
		if t.Mode == mode {
			return t, true
		}
	}
	return designtab.ModeTab{}, false
}

// PictureCaption is the head of an exported picture: the scenario's name,
// then the mode, where it came from and the instant, then its parameters,
// so a picture passed around says what it shows.
func PictureCaption(spec designtab.ModeTab, c *Controller) fyne.CanvasObject {
	sc := c.Scenario()
	// An edited run's title says what the edits were, in the words of the
	// parameter line under it, so a map cell's name ("TTL 5 s") never
	// stands over a run whose parameters say otherwise without the edit
	// that explains it.
	name := c.Title()
	if edits := c.Edits(); len(edits) > 0 {
		name = i18n.F("title.editedWith", "name", c.Name(), "edits", strings.Join(edits, " · "))
	}
	title := widget.NewLabelWithStyle(name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	title.SizeName = theme.SizeNameSubHeadingText
	where := widget.NewLabelWithStyle(i18n.F("picture.where", "mode", spec.Title, "origin", OriginText(c.Origin()),
		"at", widgets.FormatTime(c.Cursor()), "end", widgets.FormatTime(c.End()), "seed", sc.Seed),
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	params := widget.NewLabel(ScenarioParameters(sc))
	params.Wrapping = fyne.TextWrapWord
	return container.New(layout.NewCustomPaddedVBoxLayout(0), title, where, params)
}

// ScenarioParameters writes a scenario's parameters on one line, in the
// words of its mode: clients, lease, work, network, servers, switches,
// faults and the changes made mid-run.
func ScenarioParameters(sc *sim.Scenario) string {
	parts := parameterParts(sc)
	var faults []string
	for _, f := range sc.Faults {
		faults = append(faults, FaultText(f))
	}
	if len(faults) > 0 {
		parts = append(parts, i18n.F("param.faults", "faults", strings.Join(faults, "; ")))
	}
	for _, ch := range sc.Changes {
		parts = append(parts, i18n.F("param.change", "t", widgets.ShortTime(ch.At.D()), "change", ChangeText(sc, ch)))
	}
	return strings.Join(parts, " · ")
}

// ChangeText says what a change made mid-run sets, in the reader's
// language and the words of the parameter line ("TTL 44 s · watchdog
// on"); a field the line does not show is written as the file has it.
func ChangeText(sc *sim.Scenario, ch sim.Change) string {
	before, after := sc.At(ch.At.D()-1), sc.At(ch.At.D())
	was := map[string]bool{}
	for _, p := range parameterParts(before) {
		was[p] = true
	}
	var out []string
	for _, p := range parameterParts(after) {
		if !was[p] {
			out = append(out, p)
		}
	}
	var unshown []string // fields the line does not show, as the file has them
	for _, k := range ch.Set.Fields() {
		if !shownField(sc.Mode, k) {
			unshown = append(unshown, k+" "+ch.Set.Value(k))
		}
	}
	if out = append(out, unshown...); len(out) == 0 {
		return ch.String() // a switch turned off that the line only names when on
	}
	return strings.Join(out, " · ")
}

// ChangeMarkText says a mid-run change as the trace notes it
// (sim.Change.String: "ttl=48s, watchdog=true") in the reader's words,
// each field as "name → value" ("TTL → 48 s · watchdog → on"), for the
// timeline's badge and the event log's row; mode gives the lease its
// design's own name. A field it does not know is left as the file has it.
func ChangeMarkText(mode, note string) string {
	var out []string
	for _, part := range strings.Split(note, ", ") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			out = append(out, part)
			continue
		}
		out = append(out, i18n.F("change.set", "name", changeFieldName(mode, k), "value", changeValue(v)))
	}
	return strings.Join(out, " · ")
}

// changeFieldName is a changeable field's name in the reader's language:
// a design's option's, change.field.<key> where there are such words,
// else those of the parameter line (param.<Words>).
func changeFieldName(mode, field string) string {
	switch field {
	case "ttl", "work", "latency":
		return fieldName(mode, field)
	case "fencing":
		return i18n.T("param." + field)
	case "think", "jitter", "retryDelay", "tries":
		return i18n.T("change.field." + field)
	}
	if o := sim.OptionOf(mode, field); o != nil {
		for _, key := range []string{"change.field." + field, "param." + o.Words} {
			if i18n.Has(i18n.English, key) {
				return i18n.T(key)
			}
		}
	}
	return field
}

// changeValue is a value as the file has it in the reader's words: a
// duration in the units the parameter line uses, a switch on or off.
func changeValue(v string) string {
	switch v {
	case "true":
		return i18n.T("change.on")
	case "false":
		return i18n.T("change.off")
	}
	if d, err := time.ParseDuration(v); err == nil {
		return widgets.ShortTime(d)
	}
	return v
}

// parameterField are the changeable fields every design has that the
// parameter line shows; a design's option it shows has a Describe.
var parameterField = map[string]bool{"ttl": true, "work": true, "latency": true, "jitter": true, "fencing": true}

// shownField says whether the parameter line of a scenario of mode shows
// the field.
func shownField(mode, field string) bool {
	if o := sim.OptionOf(mode, field); o != nil {
		return o.Describe != sim.DescribeNot
	}
	return parameterField[field]
}

// parameterParts are the pieces of a scenario's parameter line before its
// faults and changes.
func parameterParts(sc *sim.Scenario) []string {
	d := func(x sim.Duration) string { return widgets.ShortTime(x.D()) }
	rounds := i18n.T("param.untilEnd")
	if sc.Rounds == 1 {
		rounds = i18n.T("param.round")
	} else if sc.Rounds > 1 {
		rounds = i18n.F("param.rounds", "n", sc.Rounds)
	}
	parts := []string{
		i18n.F("param.clients", "n", sc.Clients, "rounds", rounds),
		fieldName(sc.Mode, "ttl") + " " + d(sc.TTL),
		i18n.F("param.work", "t", d(sc.Work)),
		i18n.F("param.latency", "t", d(sc.Latency), "jitter", d(sc.Jitter)),
	}
	// The design's options in their order, as their declarations say them
	// (its servers in its own words: param.servers, param.masters or
	// param.members), and fencing where the design reads it after the last
	// option the line always says: the switches said only when on that end
	// a design's list (herd, plain DEL) come after it.
	options := sim.OptionsOf(sc.Mode)
	fencingAt := 0
	for i, o := range options {
		if o.Describe != sim.DescribeNot && o.Describe != sim.DescribeWhenOn && o.Describe != sim.DescribePhrase && o.Describe != sim.DescribeFigureWhenOn {
			fencingAt = i + 1
		}
	}
	for i, o := range options {
		if i == fencingAt {
			parts = append(parts, fencingPart(sc)...)
		}
		if p, ok := optionPart(sc, o); ok {
			parts = append(parts, p)
		}
	}
	if fencingAt == len(options) {
		parts = append(parts, fencingPart(sc)...)
	}
	if sc.ClockDrift > 0 {
		parts = append(parts, i18n.F("param.clockDrift", "drift", strconv.FormatFloat(sc.ClockDrift, 'f', -1, 64)))
	}
	return parts
}

// fencingPart is how the parameter line says fencing: on or off where the
// design reads it, nothing where it refuses it.
func fencingPart(sc *sim.Scenario) []string {
	if !sim.TraitsOf(sc.Mode).Reads("fencing") {
		return nil
	}
	if sc.Fencing {
		return []string{i18n.F("param.on", "name", i18n.T("param.fencing"))}
	}
	return []string{i18n.F("param.off", "name", i18n.T("param.fencing"))}
}

// optionPart is how the parameter line says a design's option in sc, as
// its declaration asks (sim.Option.Describe, its words param.<Words>);
// ok is false when the line leaves it out (off, or where it does not
// apply).
func optionPart(sc *sim.Scenario, o *sim.Option) (string, bool) {
	if !o.AppliesTo(sc) {
		return "", false
	}
	key, on := "param."+o.Words, o.IsOn(sc)
	switch o.Describe {
	case sim.DescribeOnOff:
		if on {
			return i18n.F("param.on", "name", i18n.T(key)), true
		}
		return i18n.F("param.off", "name", i18n.T(key)), true
	case sim.DescribeWhenOn:
		return i18n.F("param.on", "name", i18n.T(key)), on
	case sim.DescribePhrase:
		if x, ok := o.Value(sc).(string); ok { // a choice: its value's words, param.<Words>.<value>
			return i18n.T(key + "." + x), on
		}
		return i18n.T(key), on
	case sim.DescribeFigure, sim.DescribeFigureWhenOn:
		show := o.Describe == sim.DescribeFigure || on
		if d, ok := o.Value(sc).(sim.Duration); ok {
			return i18n.F(key, "t", widgets.ShortTime(d.D())), show
		}
		return i18n.F(key, "n", optionValue(o, sc)), show
	case sim.DescribeAsIs:
		return o.Key + " " + optionValue(o, sc), true
	}
	return "", false
}

// optionValue is an option's value in sc as a person reads it: a count, a
// number as the file writes it, a length of time as the lines do.
func optionValue(o *sim.Option, sc *sim.Scenario) string {
	switch v := o.Value(sc).(type) {
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case sim.Duration:
		return widgets.ShortTime(v.D())
	case bool:
		return strconv.FormatBool(v)
	case string:
		return v
	}
	return ""
}

// FaultText says what one fault does, in a few words.
func FaultText(f sim.Fault) string {
	at := widgets.ShortTime(f.At.D())
	if f.When != "" { // tied to its client's step, not to an instant
		at = i18n.F("faulttext.when", "step", f.When, "round", f.WhenRound())
	}
	switch f.Kind() {
	case sim.FaultPause:
		return i18n.F("faulttext.pause", "node", f.Pause, "at", at, "for", widgets.ShortTime(f.For.D()))
	case sim.FaultClockJump:
		if f.Monotonic {
			return i18n.F("faulttext.clockJumpMonotonic", "node", f.ClockJump, "by", widgets.FormatSkew(f.By.D()), "at", at)
		}
		return i18n.F("faulttext.clockJump", "node", f.ClockJump, "by", widgets.FormatSkew(f.By.D()), "at", at)
	case sim.FaultPartition:
		var groups []string
		for _, g := range f.Partition {
			groups = append(groups, strings.Join(g, ","))
		}
		return i18n.F("faulttext.partition", "groups", "{"+strings.Join(groups, "} {")+"}", "at", at, "for", widgets.ShortTime(f.For.D()))
	case sim.FaultCrash:
		return i18n.F("faulttext.crash", "node", f.Crash, "at", at)
	case sim.FaultRestart:
		if f.Persist {
			return i18n.F("faulttext.restartAOF", "node", f.Restart, "at", at)
		}
		return i18n.F("faulttext.restart", "node", f.Restart, "at", at)
	case sim.FaultFailover:
		return i18n.F("faulttext.failover", "node", f.Failover, "at", at)
	}
	return i18n.F("faulttext.other", "kind", f.Kind(), "at", at)
}
