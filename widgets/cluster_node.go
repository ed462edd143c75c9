package widgets

import (
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// nodeObjects are the canvas objects of one node, made once and reused.
type nodeObjects struct {
	frame          *canvas.Rectangle
	lines          [4]*canvas.Text
	badge          *canvas.Rectangle
	badgeText      *canvas.Text
	pause1, pause2 *canvas.Rectangle
	cross1, cross2 *canvas.Line
}

func newNodeObjects() *nodeObjects {
	o := &nodeObjects{
		frame:     &canvas.Rectangle{CornerRadius: 6},
		badge:     &canvas.Rectangle{CornerRadius: 4},
		badgeText: NewText(11, true),
		pause1:    &canvas.Rectangle{},
		pause2:    &canvas.Rectangle{},
		cross1:    &canvas.Line{},
		cross2:    &canvas.Line{},
	}
	o.lines[0] = NewText(13, true)
	for i := 1; i < len(o.lines); i++ {
		o.lines[i] = NewText(11.5, false)
	}
	return o
}

func (o *nodeObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.frame, o.lines[0], o.lines[1], o.lines[2], o.lines[3],
		o.badge, o.badgeText, o.pause1, o.pause2, o.cross1, o.cross2}
}

// nodeSpots is where a node's parts go in its box: the frame, its four
// lines (name, state or role, clock, detail), the holder's badge, the
// pause glyph's two bars and a crashed node's cross.
type nodeSpots struct {
	frame          RectSpot
	lines          [4]TextSpot
	badge          RectSpot
	badgeText      TextSpot
	pause1, pause2 RectSpot
	cross1, cross2 LineSpot
}

// nodeLines are the four lines a node's box says: its name, its state (a
// client) or role (a server), its clock and a detail (crashed, paused
// until, the session, the design's own).
func nodeLines(n sim.NodeView) [4]string {
	var lines [4]string
	lines[0] = n.Name
	if n.Client {
		lines[1] = ClientStateText(n)
	} else {
		lines[1] = i18n.Term(n.Role.String())
	}
	lines[2] = i18n.F("cluster.clock", "t", FormatTime(n.Wall))
	if n.Skew != 0 {
		lines[2] += "  (" + FormatSkew(n.Skew) + ")"
	}
	switch {
	case n.Crashed:
		lines[3] = i18n.T("cluster.crashed")
	case n.Paused:
		lines[3] = i18n.F("cluster.pausedUntil", "t", FormatTime(n.Resume))
	case n.Session != "":
		lines[3] = i18n.Term(n.Session)
	default:
		lines[3] = Say(n.DetailWords, n.Detail)
	}
	return lines
}

// nodeGeometry is where node n's parts go in its box b, its lengths and
// words at scale k (clusterScale), in th's colours (fg its foreground).
// Only a line wholly inside the box, clear of its bottom edge, is shown,
// shortened to the box's width; a slim box (slimNodeLines) says the name
// and the state on one line.
func nodeGeometry(n sim.NodeView, b box, k float32, th fyne.Theme, fg color.Color) nodeSpots {
	return nodeGeometryOf(n, nodeLines(n), b, k, th, fg)
}

// nodeGeometryOf is nodeGeometry for a box that says lines: a node's own
// (nodeLines) or a crowd's group's (groupLines).
func nodeGeometryOf(n sim.NodeView, lines [4]string, b box, k float32, th fyne.Theme, fg color.Color) nodeSpots {
	var s nodeSpots
	accent := ColorServerLink
	fill := Fade(ColorServerLink, 0.10)
	stroke := float32(1.5)
	if n.Client {
		accent = StateColor(n.State)
		fill = Fade(accent, 0.14)
		if n.State == sim.StateHolding {
			stroke = 3.5
		}
	}
	if n.Paused {
		fill = Fade(ColorIdle, 0.35)
	}
	if n.Crashed {
		fill, accent = Fade(ColorIdle, 0.2), ColorIdle
	}
	s.frame = BoxAt(b.pos, b.size, fill, accent, stroke)

	muted := ThemeColor(th, theme.ColorNamePlaceHolder)
	slim := b.size.Height < nodeTwoLinesH
	if slim {
		s.lines[0], s.lines[1] = slimNodeLines(n, lines, b, fg, th)
	} else {
		y := b.pos.Y + 5*k
		for i := range lines {
			size := 11.5 * k
			if i == 0 {
				size = 13 * k
			}
			s.lines[i].Size = size
			h := size + 4*k
			bold := i == 0
			text := FitText(lines[i], size, bold, b.size.Width-18*k)
			if lines[i] == "" || y+fyne.MeasureText(text, size, fyne.TextStyle{Bold: bold}).Height > b.pos.Y+b.size.Height-2 {
				continue
			}
			c := fg
			if i >= 2 {
				c = muted
			}
			if i == 1 && n.Client {
				c = Readable(StateColor(n.State), th)
			}
			if i == 3 && (n.Paused || n.Crashed) {
				c = fg
			}
			s.lines[i] = TextAt(text, fyne.NewPos(b.pos.X+9*k, y), c).Sized(size)
			y += h
		}
	}

	// The holder's badge: its token when the mode hands one out.
	if n.Client && n.State == sim.StateHolding && !slim && b.size.Width >= 150*k {
		label := i18n.T(LeaderWords("cluster.holder", n.Candidate))
		if n.Token > 0 {
			label = i18n.F(LeaderWords("cluster.holderToken", n.Candidate), "token", n.Token)
		}
		w := TextWidth(label, 11*k, true) + 10*k
		pos := fyne.NewPos(b.pos.X+b.size.Width-w-6*k, b.pos.Y+5*k)
		s.badge = RectAt(pos, fyne.NewSize(w, 17*k), ColorHolding)
		s.badgeText = TextAt(label, pos.AddXY(5*k, k), color.White).Sized(11 * k)
	}

	// A paused node carries the pause glyph: two bars.
	if n.Paused && !n.Crashed {
		x := b.pos.X + b.size.Width - 22
		if s.badge.Shown {
			x = s.badge.Pos.X - 18
		}
		gh := float32(math.Max(2, math.Min(16, float64(b.size.Height-8))))
		s.pause1 = RectAt(fyne.NewPos(x, b.pos.Y+6), fyne.NewSize(4, gh), fg)
		s.pause2 = RectAt(fyne.NewPos(x+8, b.pos.Y+6), fyne.NewSize(4, gh), fg)
	}

	// A crashed node is crossed out.
	if n.Crashed {
		br := b.pos.Add(fyne.NewPos(b.size.Width, b.size.Height))
		s.cross1 = LineAt(b.pos, br, ColorFault, 3)
		s.cross2 = LineAt(fyne.NewPos(b.pos.X, br.Y), fyne.NewPos(br.X, b.pos.Y), ColorFault, 3)
	}
	return s
}

// place puts the node's objects where s says.
func (o *nodeObjects) place(s nodeSpots) {
	s.frame.Place(o.frame)
	for i, t := range o.lines {
		s.lines[i].Place(t)
	}
	s.badge.Place(o.badge)
	s.badgeText.Place(o.badgeText)
	s.pause1.Place(o.pause1)
	s.pause2.Place(o.pause2)
	s.cross1.Place(o.cross1)
	s.cross2.Place(o.cross2)
}

// ClientStateText spells a client's state out, so colour is never the only
// cue.
func ClientStateText(n sim.NodeView) string {
	switch n.State {
	case sim.StateHolding:
		if n.HoldWords.Key != "" {
			return i18n.F(LeaderWords("client.holdingSo", n.Candidate), "so", Say(n.HoldWords, ""))
		}
		switch {
		case n.Shared && n.Holds > 1:
			return i18n.F("client.holdingReadCount", "n", strconv.Itoa(n.Holds))
		case n.Shared:
			return i18n.T("client.holdingRead")
		case n.Holds > 1:
			return i18n.F("client.holdingCount", "n", strconv.Itoa(n.Holds))
		}
		return i18n.T(LeaderWords("client.holding", n.Candidate))
	case sim.StateWaiting:
		return i18n.T(LeaderWords("client.waiting", n.Candidate))
	case sim.StateDone:
		return i18n.T("client.done")
	case sim.StateTold:
		return i18n.T(LeaderWords("client.told", n.Candidate))
	}
	return i18n.T("client.idle")
}

// nodeTwoLinesH is the least height of a node box that holds its name and
// its state one above the other; a slimmer box (many nodes in a short
// window) says both on one line.
const nodeTwoLinesH = 40

// slimNodeLines is where a slim box writes its name and state, side by
// side, as large as the box allows, so a short window still says who each
// node is and what it is doing.
func slimNodeLines(n sim.NodeView, lines [4]string, b box, fg color.Color, th fyne.Theme) (name, state TextSpot) {
	size := min(13, max(8, b.size.Height-5))
	// A name a little too wide for a narrow tile (Redlock's five masters
	// beside the event log in a 1024×768 window: "redis…") is set smaller
	// rather than cut, down to 9 points.
	for room := b.size.Width - 14; size > 9; {
		w := TextWidth(lines[0], size, true)
		if w <= room {
			break
		}
		size = max(9, min(size-0.25, size*room/w)) // the width is not quite linear in the size
	}
	y := b.pos.Y + (b.size.Height-size*1.35)/2
	nameText := FitText(lines[0], size, true, b.size.Width-14)
	name = TextAt(nameText, fyne.NewPos(b.pos.X+7, y), fg).Sized(size)
	x := b.pos.X + 7 + TextWidth(nameText, size, true) + 8
	c := ThemeColor(th, theme.ColorNamePlaceHolder)
	if n.Client {
		c = Readable(StateColor(n.State), th)
	}
	// A client's state is worth its first words; a server's role is shown
	// whole or not at all ("redis-1 ma…" in Redlock's tiles at 1024×768
	// said less than "redis-1": every one of them is a master).
	room := b.pos.X + b.size.Width - 6 - x
	if !n.Client && TextWidth(lines[1], size*0.9, false) > room {
		room = 0
	}
	state.Size = size * 0.9
	if lines[1] != "" && room > 2*size {
		state = TextAt(FitText(lines[1], size*0.9, false, room), fyne.NewPos(x, y+size*0.05), c).Sized(size * 0.9)
	}
	return name, state
}
