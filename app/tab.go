package app

import (
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// Pictures are the drawings of one tab's instant — cluster, the mode's
// state, caption, timeline and metrics — apart from the controls, so the
// same picture can be built again off screen (for an exported PNG).
type Pictures struct {
	Cluster   *widgets.ClusterView
	Dashboard *widgets.Dashboard // the run's efficiency at the cursor, beside the pictures when shown (dashboard.go); nil in an export
	State     designtab.StateView
	Timeline  *widgets.Timeline
	Metrics   *widgets.Metrics
	Caption   *widget.RichText
	Protocol  *widget.Label

	spec         designtab.ModeTab
	protoFor     *sim.Scenario // the scenario the protocol notes were written for
	clusterPanel *widgets.Panel
	content      fyne.CanvasObject
	side         *fyne.Container // beside the pictures in the tab: the event log and the dashboard, each when shown; empty in an export
	sideLog      fyne.CanvasObject
	sideDash     fyne.CanvasObject
	dashScroll   *container.Scroll
	logOn        bool
	dashOn       bool
	room         *roomForLanes   // the split between the pictures above and the timeline
	notes        *yieldingFooter // the split between the state picture and the protocol notes; nil without notes
	stateBox     *fyne.Container // the picture and the notes it lays out
}

// NewPictures builds the drawings of a mode's tab.
func NewPictures(spec designtab.ModeTab) *Pictures {
	p := &Pictures{
		Cluster:  widgets.NewClusterView(),
		State:    spec.NewState(),
		Timeline: widgets.NewTimeline(),
		Metrics:  widgets.NewMetrics(),
		Caption:  widget.NewRichText(),
		Protocol: widget.NewLabel(""),
		spec:     spec,
	}
	p.Caption.Wrapping = fyne.TextWrapWord
	p.Protocol.Wrapping = fyne.TextWrapWord
	p.Protocol.SizeName = theme.SizeNameCaptionText
	p.clusterPanel = widgets.NewPanel("panel.cluster", p.Cluster)
	state := fyne.CanvasObject(p.State)
	if spec.Protocol != nil {
		p.notes = &yieldingFooter{footer: p.Protocol}
		p.stateBox = container.New(p.notes, p.State, container.NewVScroll(p.Protocol))
		state = p.stateBox
	}
	top := container.NewHSplit(p.clusterPanel, widgets.NewPanel(spec.StateTitle, state))
	// Half and half: at 1024×768 the state picture's 42 % left Redlock's
	// five masters columns of 30 points, their cells cut to "7.…", "n…".
	top.Offset = 0.5
	timeline := widgets.NewPanel("panel.timeline", p.Timeline)
	bottom := container.NewBorder(p.Caption, nil, nil, nil, timeline)
	mid := container.NewVSplit(top, bottom)
	p.room = newRoomForLanes(mid, p.Timeline)
	p.side = container.NewStack()
	p.side.Hide()
	body := container.NewHSplit(container.New(p.room, mid), p.side)
	body.Offset = 0.7
	p.content = container.NewBorder(nil, widgets.NewPanel("", p.Metrics), nil, nil, body)
	return p
}

// saidTimeline is tl with its mid-run changes' marks in the reader's words
// ("TTL → 48 s", not the trace's ttl=48s); the recording's own marks are
// left as they are.
func saidTimeline(tl sim.Timeline, mode string) sim.Timeline {
	faults := make([]sim.FaultMark, len(tl.Faults))
	for i, f := range tl.Faults {
		if f.Kind == sim.FaultChange {
			f.Note = ChangeMarkText(mode, f.Note)
		}
		faults[i] = f
	}
	tl.Faults = faults
	return tl
}

// Content is the pictures laid out as the tab shows them.
func (p *Pictures) Content() fyne.CanvasObject { return p.content }

// ShowRun draws the whole recorded run: the timeline's lanes.
func (p *Pictures) ShowRun(c *Controller) {
	p.Timeline.SetTimeline(saidTimeline(c.Timeline(), c.Scenario().Mode))
	p.room.again()
	p.protoFor = nil
	p.showProtocol(c)
}

// showProtocol writes the protocol notes for the scenario as it stands at
// the cursor: a control moved mid-run shows from where it acts, first in
// the notes and in the commands they spell out (PX, lease TTL).
func (p *Pictures) showProtocol(c *Controller) {
	eff := c.Effective()
	if p.spec.Protocol == nil || eff == nil || eff == p.protoFor {
		return
	}
	p.protoFor = eff
	var lines []string
	for _, ch := range c.Scenario().Changes {
		if ch.At.D() <= c.Cursor() {
			key := "proto.changed"
			if ch.Set.Has("ttl") {
				key = "proto.changedTTL" // and what it leaves as it was
			}
			lines = append(lines, i18n.F(key, "t", widgets.ShortTime(ch.At.D()), "change", ChangeText(c.Scenario(), ch)))
		}
	}
	lines = append(lines, p.spec.Protocol(eff)...)
	p.Protocol.SetText("• " + strings.Join(lines, "\n• "))
}

// Show draws the instant at the controller's cursor.
func (p *Pictures) Show(c *Controller) {
	snap := c.Snapshot()
	if snap == nil {
		return
	}
	p.Cluster.SetSnapshot(snap)
	p.State.SetSnapshot(snap)
	p.Timeline.SetCursor(c.Cursor())
	p.Metrics.SetSummary(snap.Metrics, c.Cursor() >= c.End())
	p.showProtocol(c)
	if p.notes != nil {
		p.notes.follow(p.stateBox.Objects)
	}
	p.showCaption(c)
}

// Caption styles: the narration as written, and one the run on show no
// longer bears out (greyed, after a mark that says why).
var (
	captionTrue  = widget.RichTextStyleInline
	captionStale = widget.RichTextStyle{Inline: true, ColorName: theme.ColorNamePlaceHolder, TextStyle: fyne.TextStyle{Italic: true}}
	captionMark  = widget.RichTextStyle{Inline: true, ColorName: theme.ColorNameWarning, TextStyle: fyne.TextStyle{Bold: true}}
	// The story held at this caption: the narration in bold after a mark
	// in the theme's primary colour that says how to go on.
	captionHeld = widget.RichTextStyle{Inline: true, TextStyle: fyne.TextStyle{Bold: true}}
	captionGoOn = widget.RichTextStyle{Inline: true, ColorName: theme.ColorNamePrimary, TextStyle: fyne.TextStyle{Bold: true}}
)

// showCaption writes the scenario's narration for the cursor. A caption
// an edit made false (Controller.CaptionHolds) is never shown as true: it
// is greyed behind a mark saying from when the run differs.
func (p *Pictures) showCaption(c *Controller) {
	text, at, mark, style, markStyle := i18n.T("caption.none"), "", "", captionTrue, captionMark
	if cp, ok := c.Caption(); ok {
		text, at = cp.Text, widgets.FormatTime(cp.At.D())+"  "
		if i18n.Current() == i18n.Chinese && cp.Zh != "" {
			text = cp.Zh
		}
		switch {
		case !c.CaptionHolds(cp):
			mark = i18n.F("caption.stale", "t", widgets.FormatTime(c.Divergence())) + " "
			style = captionStale
		case c.AtStoryStop():
			mark, markStyle, style = i18n.T("caption.storyStop")+" ", captionGoOn, captionHeld
		}
	}
	segs := p.Caption.Segments
	if len(segs) != 3 {
		p.Caption.Segments = []widget.RichTextSegment{
			&widget.TextSegment{Style: widget.RichTextStyleStrong},
			&widget.TextSegment{Style: captionMark},
			&widget.TextSegment{Style: captionTrue},
		}
		segs = p.Caption.Segments
	}
	want := []string{at, mark, text}
	changed := segs[2].(*widget.TextSegment).Style != style || segs[1].(*widget.TextSegment).Style != markStyle
	for i, w := range want {
		changed = changed || segs[i].(*widget.TextSegment).Text != w
	}
	if changed {
		for i, w := range want {
			segs[i].(*widget.TextSegment).Text = w
		}
		segs[1].(*widget.TextSegment).Style = markStyle
		segs[2].(*widget.TextSegment).Style = style
		p.Caption.Refresh()
	}
}

// tabView is one mode's tab: its controller and pictures, and the parts
// around them, each in a file of its own, which it wires together.
type tabView struct {
	spec designtab.ModeTab
	ctl  *Controller
	win  fyne.Window
	tips *widgets.TipLayer
	pics *Pictures

	toolbar  *toolbar        // transport, speed and preset picker (toolbar.go)
	controls *controls       // toggles and sliders (controls.go)
	clock    *frameClock     // plays the run (frameclock.go)
	log      *EventLog       // the trace around the cursor (eventlog.go)
	dash     *tabDashboard   // the dashboard's following of the cursor (dashboard.go)
	tradeoff *tradeoffView   // the Trade-off map, shown instead of the run
	breakIt  *breakIt        // the Break it search (breakit.go)
	bar      *fyne.Container // the toolbar, toggles and sliders, flowing into rows (responsive.go)
	status   *widget.Label
	content  fyne.CanvasObject

	title   string         // the run's title when last shown
	onTitle func(*tabView) // called when the title changes (the window's title follows the current tab)
	onRun   func(*tabView) // called after a new run is on show (an edit, undo, a load)
}

func newTabView(spec designtab.ModeTab, win fyne.Window, tips *widgets.TipLayer) *tabView {
	v := buildTabView(spec, NewController(spec.Mode), win, tips)
	if spec.Preset != "" {
		if err := v.ctl.LoadPreset(spec.Preset); err != nil {
			fyne.LogError("loading preset "+spec.Preset, err)
		}
	}
	v.showRun()
	return v
}

// buildTabView makes a tab's widgets around a controller, with every word
// in the current language; the window builds its tabs again this way when
// the language changes.
func buildTabView(spec designtab.ModeTab, ctl *Controller, win fyne.Window, tips *widgets.TipLayer) *tabView {
	v := &tabView{spec: spec, ctl: ctl, win: win, tips: tips, pics: NewPictures(spec)}
	v.clock = newFrameClock(v)
	v.pics.Timeline.OnSeek = v.seek
	v.pics.Timeline.SetTipLayer(tips)
	v.pics.Cluster.OnTapNode = v.nodeMenu
	v.pics.Cluster.OnTapGroup = v.groupMenu
	v.content = v.build()
	return v
}

func (v *tabView) build() fyne.CanvasObject {
	v.tradeoff = newTradeoffView(v, v.pics.Content())
	v.toolbar = newToolbar(v)
	v.breakIt = newBreakIt(v)
	v.controls = newControls(v)

	// One flow of groups, each kept whole: the transport, the speed, the
	// preset, the Trade-off button, the toggles, then a cell per slider.
	// A narrow window wraps them into more rows; the slider cells share
	// what a row has to spare. An action added to the bar is one more
	// object in v.bar.
	v.bar = newFlow(append(v.toolbar.groups(), v.tradeoff.button, v.breakIt.button)...)
	v.bar.Objects = append(v.bar.Objects, v.controls.toggleCells()...)
	for _, cell := range v.controls.sliderCells() {
		v.bar.Add(cell)
	}

	v.status = widget.NewLabel("")
	v.status.Truncation = fyne.TextTruncateEllipsis
	top := v.bar
	v.addEventLog()
	v.dash = newTabDashboard(v)
	return newFlowBorder(top, container.NewStack(v.pics.Content(), v.tradeoff.content), v.status)
}

// showRun redraws after a new recording: the lanes, the controls and the
// instant.
func (v *tabView) showRun() {
	v.pics.ShowRun(v.ctl)
	v.toolbar.showRun()
	v.log.showRun(v.ctl)
	v.controls.showRun()
	v.syncControls()
	v.toolbar.syncSpeed()
	v.show()
	v.tradeoff.follow()
	if v.onRun != nil {
		v.onRun(v)
	}
}

// show redraws the instant at the cursor and the status line.
func (v *tabView) show() {
	v.pics.Show(v.ctl)
	v.log.Follow(v.ctl.Cursor())
	v.controls.follow()
	v.dash.follow(false)
	v.toolbar.showPlaying()
	v.status.SetText(v.ctl.Status())
	if t := v.ctl.Title(); t != v.title {
		v.title = t
		if v.onTitle != nil {
			v.onTitle(v)
		}
	}
}

// syncControls sets every control from the scenario without acting on it.
func (v *tabView) syncControls() {
	sc := v.ctl.Effective()
	if sc == nil {
		return
	}
	v.controls.sync(sc)
	v.toolbar.syncPreset()
}

// unfocus gives the keyboard back to the window's shortcuts after a
// control was used.
func (v *tabView) unfocus() {
	if v.win != nil {
		v.win.Canvas().Unfocus()
	}
}

// fail shows an error and leaves the user's state as it was.
func (v *tabView) fail(err error) {
	if v.win != nil {
		showError(err, v.win)
	}
	v.syncControls()
	v.status.SetText(v.ctl.Status())
}

// LoadScenario replaces the tab's scenario (an opened file, a preset).
func (v *tabView) LoadScenario(sc *sim.Scenario, origin string) error {
	v.stopTicker()
	if err := v.ctl.Load(sc, origin); err != nil {
		return err
	}
	v.showRun()
	return nil
}

func (v *tabView) seek(t time.Duration) {
	v.ctl.Seek(t)
	v.show()
}

// jumpMoment moves to the next moment of interest (N) or the previous one
// (Shift+N).
func (v *tabView) jumpMoment(forward bool) {
	v.ctl.JumpMoment(forward)
	v.syncTicker()
	v.show()
}

func (v *tabView) togglePlay() {
	v.ctl.TogglePlay()
	v.syncTicker()
	v.show()
}

func (v *tabView) stepForward() {
	v.ctl.Step()
	v.syncTicker()
	v.show()
}

func (v *tabView) stepDelta() {
	v.ctl.StepDelta()
	v.syncTicker()
	v.show()
}

func (v *tabView) stepBack() {
	v.ctl.StepBack()
	v.syncTicker()
	v.show()
}

func (v *tabView) rewind() {
	v.ctl.Reset()
	v.syncTicker()
	v.show()
}

// nodeMenu offers the faults that apply to a tapped node at the cursor.
func (v *tabView) nodeMenu(node string, at fyne.Position) {
	snap := v.ctl.Snapshot()
	if snap == nil || v.win == nil {
		return
	}
	pause, _ := v.ctl.PauseLength()
	choices := FaultChoices(v.ctl.Scenario(), snap, node, pause)
	if len(choices) == 0 {
		return
	}
	items := make([]*fyne.MenuItem, 0, len(choices))
	for _, ch := range choices {
		items = append(items, fyne.NewMenuItem(ch.Label, func() { v.inject(ch.Fault) }))
	}
	// The header is a bold label in the theme's foreground above the menu,
	// not a disabled menu item: Fyne draws those grey on the menu's grey,
	// unreadable in both themes.
	head := widget.NewLabelWithStyle(i18n.F("fault.menu.head", "node", node, "t", widgets.FormatTime(v.ctl.Cursor())),
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	menu := widget.NewMenu(fyne.NewMenu("", items...))
	pop := widget.NewPopUp(container.NewVBox(head, widget.NewSeparator(), menu), v.win.Canvas())
	menu.OnDismiss = pop.Hide
	pop.ShowAtPosition(at)
}

// groupMenuRows is how many of a crowd's group's clients its list shows
// at once; the rest scroll.
const groupMenuRows = 10

// groupMenu lists the clients of a crowd's group (a tap on its box), each
// with its state and detail as its own box would say them; picking one
// opens its fault menu, as a tap on its own box would.
func (v *tabView) groupMenu(g widgets.CrowdGroup, at fyne.Position) {
	if v.win == nil || len(g.Clients) == 0 {
		return
	}
	var pop *widget.PopUp
	// The names take one column, as wide as the longest of them.
	nameW := float32(0)
	for _, c := range g.Clients {
		nameW = max(nameW, widgets.TextWidth(c.Name, theme.TextSize(), true))
	}
	nameW += 2 * theme.InnerPadding()
	list := widget.NewList(func() int { return len(g.Clients) },
		func() fyne.CanvasObject {
			name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			return container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(nameW, name.MinSize().Height), name), nil, widget.NewLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := g.Clients[i]
			row := o.(*fyne.Container)
			row.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).SetText(c.Name)
			detail := c.State
			if c.Detail != "" {
				detail += " · " + c.Detail
			}
			row.Objects[0].(*widget.Label).SetText(detail)
		})
	list.OnSelected = func(i widget.ListItemID) {
		pop.Hide()
		v.nodeMenu(g.Clients[i].Name, at)
	}
	head := widget.NewLabelWithStyle(i18n.F("cluster.crowd.pick", "group", g.Title, "t", widgets.FormatTime(v.ctl.Cursor())),
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	rows := min(len(g.Clients), groupMenuRows)
	h := float32(rows)*(list.MinSize().Height+theme.Padding()) + theme.Padding()
	box := container.NewBorder(container.NewVBox(head, widget.NewSeparator()), nil, nil, nil,
		container.NewGridWrap(fyne.NewSize(max(head.MinSize().Width, 360), h), list))
	pop = widget.NewPopUp(box, v.win.Canvas())
	pop.ShowAtPosition(at)
}

// inject adds a fault at the cursor and re-records.
func (v *tabView) inject(f sim.Fault) {
	if err := v.ctl.InjectFault(f); err != nil {
		v.fail(err)
		return
	}
	v.showRun()
}

// undo takes back the last fork, fault or control change (Ctrl+Z).
func (v *tabView) undo() {
	if v.ctl.Undo() {
		v.syncTicker()
		v.showRun()
	}
}

// redo makes an undone change again (Ctrl+Shift+Z).
func (v *tabView) redo() {
	if v.ctl.Redo() {
		v.syncTicker()
		v.showRun()
	}
}

// syncTicker runs the frame clock exactly while the controller plays.
func (v *tabView) syncTicker() { v.clock.sync() }

// stopTicker stops the frame clock.
func (v *tabView) stopTicker() { v.clock.stop() }

func contains(xs []string, x string) bool { return slices.Contains(xs, x) }
