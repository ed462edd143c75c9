package app

import (
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// EventLog lists the run's trace around the cursor: each event's time,
// node, what happened and its details. The row of the cursor's instant is
// selected and kept in view as the cursor moves; tapping a row moves the
// cursor to that event. It is a virtual list over the trace, so a run of a
// million events costs no more than one of a hundred.
type EventLog struct {
	List *widget.List
	// Messages shows the sends, receipts and drops; off, only the other
	// events are listed.
	Messages *widget.Check
	// OnSeek is called with the time of a tapped event.
	OnSeek func(time.Duration)

	events  *sim.TraceStore // nil before the first run
	mode    string          // the run's mode: a change names the lease in its words
	current int             // the selected row, -1 for none
	curAt   time.Duration   // the selected row's time
	at      time.Duration
	count   *widget.Label
	syncing bool
	content fyne.CanvasObject

	rowHeight float32 // a row's height, measured once
	// columns lays out every row (they share it): its widths fit the run
	// on show (fitColumns).
	columns *eventColumns
}

// NewEventLog returns an empty event log.
func NewEventLog() *EventLog {
	l := &EventLog{current: -1, columns: &eventColumns{}}
	l.fitColumns(10*time.Minute-time.Millisecond, []string{sim.ClientName(9)})
	l.count = widget.NewLabel("")
	l.count.SizeName = theme.SizeNameCaptionText
	l.count.Wrapping = fyne.TextWrapWord // a narrow log sets it on two lines: it never widens the log, nor is cut
	l.Messages = widget.NewCheck(i18n.T("eventlog.messages"), func(bool) { l.filter() })
	l.Messages.Checked = true
	l.List = widget.NewList(
		func() int { return l.Len() },
		l.newEventRow,
		func(id widget.ListItemID, o fyne.CanvasObject) { l.fillRow(id, o.(*fyne.Container)) },
	)
	l.List.HideSeparators = true
	l.List.OnSelected = l.selected
	head := container.NewBorder(nil, nil, nil, l.Messages, l.count)
	rows := container.New(&followLayout{l: l}, container.NewThemeOverride(l.List, logTheme{}))
	l.content = container.NewBorder(head, nil, nil, nil, rows)
	return l
}

// logTheme is the event log's rows' look: the window's theme with the
// rows packed tight (a 900-pixel window lists about forty events), and
// the events still to come, drawn in the disabled colour, in the muted
// one instead, which both the light and the dark theme keep legible.
type logTheme struct{}

func (logTheme) base() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

func (t logTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameDisabled {
		n = theme.ColorNamePlaceHolder
	}
	return t.base().Color(n, v)
}

func (t logTheme) Font(s fyne.TextStyle) fyne.Resource     { return t.base().Font(s) }
func (t logTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base().Icon(n) }

func (t logTheme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNamePadding:
		return 0 // the text's own line height spaces the rows
	case theme.SizeNameInnerPadding:
		return 0 // eventColumns keeps the columns apart
	}
	return t.base().Size(n)
}

// followLayout holds the log's list and scrolls the cursor's row back to
// the middle whenever the list changes size: a log opened, a window
// rebuilt in another language or resized lays the list out after it was
// asked to follow, when its height was still unknown.
type followLayout struct {
	l    *EventLog
	last fyne.Size
}

func (f *followLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if size != f.last && size.Height > 0 {
		f.last = size
		if f.l.current >= 0 {
			f.l.center(f.l.current)
		}
	}
}

func (f *followLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := fyne.Size{}
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}

// Content is the log with its header, for a panel.
func (l *EventLog) Content() fyne.CanvasObject { return l.content }

// SetTrace shows a new run's events, in order, and follows at. The log
// reads rows from the compact trace as they scroll into view, so a run of
// millions of events costs no more than one of a hundred.
func (l *EventLog) SetTrace(events *sim.TraceStore, at time.Duration) {
	l.events = events
	l.at = at
	l.filter()
}

// filter rebuilds the rows from the trace and the Messages check.
func (l *EventLog) filter() {
	n := 0
	if l.events != nil {
		n = l.events.Len()
	}
	l.count.SetText(i18n.F("eventlog.count", "shown", l.Len(), "n", n))
	l.current = -1
	l.syncing = true
	l.List.UnselectAll()
	l.syncing = false
	l.List.Refresh()
	l.Follow(l.at)
}

// Row is the row of the last event at or before t, -1 when none is.
func (l *EventLog) Row(t time.Duration) int {
	if l.events == nil {
		return -1
	}
	all, quiet := l.events.Before(t)
	if l.Messages.Checked {
		return all - 1
	}
	return quiet - 1
}

// Follow selects the row of the cursor's instant and scrolls it into view.
// It does nothing while the row stays the same, so a playing window pays
// for the log only when an event passes.
func (l *EventLog) Follow(t time.Duration) {
	l.at = t
	row := l.Row(t)
	if row == l.current {
		return
	}
	// A tapped row among several at the same instant stays selected.
	if l.current >= 0 && l.current < l.Len() && row >= 0 && l.curAt == l.Event(row).At {
		return
	}
	l.setCurrent(row)
	l.syncing = true
	defer func() { l.syncing = false }()
	if row < 0 {
		l.List.UnselectAll()
		l.List.ScrollToOffset(0)
		l.List.Refresh()
		return
	}
	l.List.Select(row)
	l.center(row)
	l.List.Refresh()
}

// center scrolls the row to the middle of the list, so the events just
// before and just after the cursor are both in view.
func (l *EventLog) center(row int) {
	if l.rowHeight == 0 {
		l.rowHeight = container.NewThemeOverride(l.newEventRow(), logTheme{}).MinSize().Height
	}
	step := l.rowHeight + logTheme{}.Size(theme.SizeNamePadding)
	l.List.ScrollToOffset(float32(row)*step - (l.List.Size().Height-step)/2)
}

// setCurrent selects row, remembering its time for the rows drawn bold.
func (l *EventLog) setCurrent(row int) {
	l.current = row
	if row >= 0 {
		l.curAt = l.Event(row).At
	}
}

// Event is the trace event of a row.
func (l *EventLog) Event(row int) sim.TraceEvent {
	if l.Messages.Checked {
		return l.events.At(row)
	}
	e, _ := l.events.QuietAt(row)
	return e
}

// Len is the number of rows shown.
func (l *EventLog) Len() int {
	switch {
	case l.events == nil:
		return 0
	case l.Messages.Checked:
		return l.events.Len()
	}
	return l.events.QuietLen()
}

func (l *EventLog) selected(row widget.ListItemID) {
	if l.syncing || row < 0 || row >= l.Len() {
		return
	}
	l.setCurrent(row)
	l.List.Refresh()
	if l.OnSeek != nil {
		l.OnSeek(l.Event(row).At)
	}
}

// fitColumns sizes the time and node columns for a run: as wide as the
// run's longest time (its end) and its longest node name, so what
// happened has the rest (at 1024 points the log is about 280 wide, and
// "MsgHeartbeatResp from etcd-2" needs 162 of them).
func (l *EventLog) fitColumns(end time.Duration, nodes []string) {
	caption := theme.CaptionTextSize()
	timeW := fyne.MeasureText(widgets.FormatTime(end), caption, fyne.TextStyle{Monospace: true}).Width
	nodeW := fyne.MeasureText(i18n.T("eventlog.scenario"), caption, fyne.TextStyle{}).Width
	for _, n := range nodes {
		nodeW = max(nodeW, fyne.MeasureText(n, caption, fyne.TextStyle{Bold: true}).Width)
	}
	l.columns.widths = []float32{max(timeW, eventTimeMin) + 2, nodeW, eventWhatMin}
}

// The least widths of the time column (that of "999 ms") and of what
// happened.
const (
	eventTimeMin = 40
	eventWhatMin = 132
)

// eventColumns lays a row out: time, node and what happened at fixed
// widths, the details in the rest. In a wide log the last fixed column
// (what happened) takes eventWhatShare of what is left after the others,
// if that is more: at 2560 points the log is 450 wide and
// "MsgHeartbeatResp from etcd-2" was cut at 132 beside an empty details
// column. Every row is laid out alike, so the columns stay aligned.
type eventColumns struct{ widths []float32 }

// noDetails reports a row whose details column is empty: its what
// happened then takes the rest of the row, so "MsgHeartbeatResp from
// etcd-2" is not cut beside an empty column in a narrow log.
func (c eventColumns) noDetails(objs []fyne.CanvasObject) bool {
	if len(objs) <= len(c.widths) {
		return true
	}
	l, ok := objs[len(c.widths)].(*widget.Label)
	return ok && l.Text == ""
}

// eventWhatShare is the share of a wide row the last fixed column takes.
const eventWhatShare = 0.6

func (c eventColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := size.Width - x
		if i < len(c.widths) {
			want := c.widths[i]
			if i == len(c.widths)-1 && !c.noDetails(objs) {
				want = max(want, w*eventWhatShare)
			} else if i == len(c.widths)-1 {
				want = w // no details: what happened takes the row's rest
			}
			w = min(want, w)
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(max(w, 0), size.Height))
		x += w + eventColumnGap
	}
}

// eventColumnGap is the room between two columns of the log.
const eventColumnGap = 4

// MinSize is a row's height and a width that leaves the time and node
// readable: the log may be narrowed until the other columns truncate.
func (c eventColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(c.widths[0]+c.widths[1]+2*eventColumnGap+40, h)
}

func (l *EventLog) newEventRow() fyne.CanvasObject {
	cell := func() *widget.Label {
		l := widget.NewLabel("")
		l.SizeName = theme.SizeNameCaptionText
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	at := cell()
	at.Alignment = fyne.TextAlignTrailing
	at.TextStyle.Monospace = true
	return container.New(l.columns, at, cell(), cell(), cell())
}

// fillRow writes an event into a row: the cursor's instant in bold, the
// events still to come muted.
func (l *EventLog) fillRow(row int, c *fyne.Container) {
	if row < 0 || row >= l.Len() {
		return
	}
	e := l.Event(row)
	node := e.Node
	if node == "" {
		node = i18n.T("eventlog.scenario")
	}
	note := widgets.Say(e.NoteWords, e.Note)
	if e.Kind == sim.TraceChange {
		note = ChangeMarkText(l.mode, e.Note)
	}
	texts := [4]string{widgets.FormatTime(e.At), node, EventWhat(e), note}
	imp := widget.MediumImportance
	bold := false
	switch {
	case e.At > l.at:
		imp = widget.LowImportance
	case l.current >= 0 && e.At == l.curAt:
		bold = true
	}
	hadDetails := c.Objects[len(c.Objects)-1].(*widget.Label).Text != ""
	for i, o := range c.Objects {
		lb := o.(*widget.Label)
		if lb.Text == texts[i] && lb.Importance == imp && lb.TextStyle.Bold == bold {
			continue
		}
		lb.Text, lb.Importance, lb.TextStyle.Bold = texts[i], imp, bold
		lb.Refresh()
	}
	if hadDetails != (note != "") { // the columns move (eventColumns)
		c.Layout.Layout(c.Objects, c.Size())
	}
}

// EventWhat says what a trace event is in a few words: the message and
// its direction, the fault, or the event's kind (in the reader's language)
// and operation.
func EventWhat(e sim.TraceEvent) string {
	switch e.Kind {
	case sim.TraceSend:
		return i18n.F("eventlog.send", "op", e.Op, "peer", e.Peer)
	case sim.TraceRecv:
		return i18n.F("eventlog.recv", "op", e.Op, "peer", e.Peer)
	case sim.TraceDrop:
		return i18n.F("eventlog.drop", "op", e.Op, "peer", e.Peer)
	case sim.TraceFault:
		return i18n.F("eventlog.fault", "op", e.Op)
	}
	kind, op := e.Kind.String(), e.Op
	if i18n.Has(i18n.English, "eventlog.kind."+kind) {
		kind = i18n.T("eventlog.kind." + kind)
	}
	if (e.Kind == sim.TraceWrite || e.Kind == sim.TraceRead) && i18n.Has(i18n.English, "eventlog.write."+op) {
		op = i18n.T("eventlog.write." + op) // the storage's verdict, not a protocol op
	}
	return strings.TrimSpace(kind + " " + op)
}

// addEventLog builds the tab's event log and puts it beside the pictures.
func (v *tabView) addEventLog() {
	v.log = NewEventLog()
	v.log.OnSeek = func(t time.Duration) {
		v.ctl.Pause()
		v.syncTicker()
		v.seek(t)
		v.unfocus()
	}
	v.pics.SetSide(widgets.NewPanel("panel.eventlog", v.log.Content()))
	v.pics.ShowSide(EventLogShown())
}

// prefEventLog is the Preferences key of whether the event log shows.
const prefEventLog = "eventLog"

// EventLogShown reports whether the tabs show their event log: the
// user's last choice, off at first so the pictures have the whole width.
func EventLogShown() bool {
	if a := fyne.CurrentApp(); a != nil {
		return a.Preferences().Bool(prefEventLog)
	}
	return false
}

// ShowEventLog shows or hides the event log of every tab and remembers
// the choice.
func (w *Window) ShowEventLog(on bool) {
	fyne.CurrentApp().Preferences().SetBool(prefEventLog, on)
	for _, v := range w.tabs {
		v.pics.ShowSide(on)
	}
	if w.files != nil && w.files.logButton != nil {
		w.files.logButton.Importance = widget.MediumImportance
		if on {
			w.files.logButton.Importance = widget.HighImportance
		}
		w.files.logButton.Refresh()
	}
}

// SetSide puts side (the tab's event log) to the right of the cluster,
// state and timeline, above the metrics strip; ShowSide shows it.
// Pictures made for an export have none.
func (p *Pictures) SetSide(side fyne.CanvasObject) {
	p.sideLog = side
	p.arrangeSide()
}

// ShowSide shows or hides what SetSide put beside the pictures.
func (p *Pictures) ShowSide(on bool) {
	if on == p.logOn {
		return
	}
	p.logOn = on
	p.arrangeSide()
}

// arrangeSide puts the parts on show beside the pictures: the event log,
// the dashboard, or both, the log above.
func (p *Pictures) arrangeSide() {
	var parts []fyne.CanvasObject
	if p.logOn && p.sideLog != nil {
		parts = append(parts, p.sideLog)
	}
	if p.dashOn && p.sideDash != nil {
		parts = append(parts, p.sideDash)
	}
	switch len(parts) {
	case 0:
		p.side.Objects = nil
	case 1:
		p.side.Objects = parts
	default:
		split := container.NewVSplit(parts[0], parts[1])
		split.Offset = 0.5
		p.side.Objects = []fyne.CanvasObject{split}
	}
	if on := len(parts) > 0; on != p.side.Visible() {
		if on {
			p.side.Show()
		} else {
			p.side.Hide()
		}
	}
	p.side.Refresh()
	p.content.Refresh()
}

// showRun hands a new recording's trace to the log, its columns fitted to
// the run's longest time and node names.
func (l *EventLog) showRun(c *Controller) {
	if rec := c.Recording(); rec != nil {
		sc := c.Scenario()
		l.mode = sc.Mode
		l.fitColumns(rec.End(), append(append(sc.ClientNames(), sc.ServerNames()...), sim.StorageName))
		l.SetTrace(rec.Events(), c.Cursor())
	}
}

// jump pauses and puts the cursor at t (Home, End).
func (v *tabView) jump(t time.Duration) {
	v.ctl.Pause()
	v.syncTicker()
	v.seek(t)
}
