// Package redis is the Redis lock's side of the window, one folder as its
// simulation is (sim/redis): its state picture (Keys: the lock key on each
// server with its TTL bar), its tab (tab.go: the sliders and toggles only
// it shows, its protocol lines), the value Tab, which the list of designs
// (package designs) installs at start.
package redis

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/widgets"
)

// Keys is the lock-key picture of Redis servers: for each server its
// role, the lock key with the owner's random value, the fencing counter and
// a TTL bar that counts down by the server's own clock and jumps back when
// a watchdog renews the key. Redlock shows its N masters with it too.
type Keys struct {
	widget.BaseWidget

	servers []redissim.ServerView
	nodes   []sim.NodeView
	master  int
	widgets.OnShow

	renderer *keysRenderer // its model, for DrawnHeight
}

// NewKeys returns an empty key picture; SetSnapshot or SetServers
// fills it.
func NewKeys() *Keys {
	k := &Keys{master: -1}
	k.ExtendBaseWidget(k)
	return k
}

// SetSnapshot shows the Redis view of a snapshot (mode "redis").
func (k *Keys) SetSnapshot(s *sim.Snapshot) {
	// A new instant has something new: the cards' clocks and TTLs move.
	if !k.Take(s) {
		return
	}
	v := redissim.ViewOf(s)
	if v == nil {
		k.SetServers(nil, nil, -1)
		return
	}
	k.SetServers(v.Servers, s.Nodes, v.Master)
}

// SetServers shows the given servers; nodes resolves their names and
// clocks, and master (an index into nodes, −1 for none) is marked as the
// server clients talk to.
func (k *Keys) SetServers(servers []redissim.ServerView, nodes []sim.NodeView, master int) {
	k.servers, k.nodes, k.master = servers, nodes, master
	k.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (k *Keys) CreateRenderer() fyne.WidgetRenderer {
	r := &keysRenderer{k: k,
		cards: widgets.NewPool(func() *cardObjects {
			return &cardObjects{frame: &canvas.Rectangle{CornerRadius: 6}, title: widgets.NewText(keysTitleSize, true),
				role: widgets.NewText(keysRoleSize, true), roleBg: &canvas.Rectangle{CornerRadius: 4}, counter: widgets.NewText(keysCounterSize, false),
				clock: widgets.NewText(theme.CaptionTextSize(), false), note: widgets.NewText(keysNoteSize, false)}
		}, (*cardObjects).all),
		keys: widgets.NewPool(func() *keyObjects {
			return &keyObjects{line: widgets.NewText(keysLineSize, false), barBg: &canvas.Rectangle{CornerRadius: 3},
				bar: &canvas.Rectangle{CornerRadius: 3}, left: widgets.NewText(keysLeftSize, false), deadline: widgets.NewText(theme.CaptionTextSize(), false)}
		}, (*keyObjects).all),
	}
	r.pools = widgets.Pools{r.cards, r.keys}
	k.renderer = r
	r.Refresh()
	return r
}

type cardObjects struct {
	frame                      *canvas.Rectangle
	title, role, counter, note *canvas.Text
	roleBg                     *canvas.Rectangle
	clock                      *canvas.Text
}

func (o *cardObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.frame, o.roleBg, o.title, o.role, o.counter, o.clock, o.note}
}

// resize gives the card's words their sizes: the picture's own at u (its
// lengths' unit, keysGeometry.u), its small print caption.
func (o *cardObjects) resize(u, caption float32) {
	widgets.ResizeText(o.title, keysTitleSize*u)
	widgets.ResizeText(o.role, keysRoleSize*u)
	widgets.ResizeText(o.counter, keysCounterSize*u)
	widgets.ResizeText(o.clock, caption)
	widgets.ResizeText(o.note, keysNoteSize*u)
}

type keyObjects struct {
	line, left, deadline *canvas.Text
	barBg, bar           *canvas.Rectangle
}

func (o *keyObjects) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.line, o.barBg, o.bar, o.left, o.deadline}
}

// resize gives the key's words their sizes: the picture's own at u, its
// small print caption.
func (o *keyObjects) resize(u, caption float32) {
	widgets.ResizeText(o.line, keysLineSize*u)
	widgets.ResizeText(o.left, keysLeftSize*u)
	widgets.ResizeText(o.deadline, caption)
}

type keysRenderer struct {
	k *Keys
	// refreshes counts redraws, so a test can tell one that was not needed;
	// builds counts the model's, so one can tell a resize did none.
	refreshes, builds int
	model             keysModel
	fg, muted         color.Color // the theme's, as of the last Refresh
	cards             *widgets.Pool[*cardObjects]
	keys              *widgets.Pool[*keyObjects]
	pools             widgets.Pools
	objects           []fyne.CanvasObject
}

func (r *keysRenderer) Destroy() {}

// Layout places the pooled objects of the stored model in size.
func (r *keysRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	r.draw(size)
	if objs := r.pools.Finish(); objs != nil {
		r.objects = objs
		widgets.Repaint(r.k)
	}
}

func (r *keysRenderer) MinSize() fyne.Size {
	em := widgets.TextScale(r.k.Theme())
	return fyne.NewSize(keysMinW*em, keysMinH*em)
}

func (r *keysRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Lengths of a server card, in points at widgets.BaseTextSize (times
// keysGeometry.u).
const (
	cardPad      = 10
	cardHeadH    = 24
	keyRowH      = 62
	barH         = 12
	cardMaxBody  = 2 * keyRowH
	cardNoteBody = 28  // a card's body that says the lock is free or the server down
	keysMinW     = 300 // the picture's least size
	keysMinH     = 100
	keysBarMin   = 40 // a TTL bar's least length, not scaled up with the panel

	cardTitleY    = 6  // the server's name below the card's top
	cardHeadTextY = 8  // the role's and the counter's words below it
	cardClockY    = 9  // the clock's small print below it
	cardNameGap   = 8  // between the name and the role pill
	rolePillY     = 7  // the role pill below the card's top
	rolePillH     = 17 // and its height
	rolePillInset = 5  // the role's words inside the pill
	cardClockGap  = 12 // between the role pill and the clock, and the clock and the counter
	cardClockFit  = 16 // the gap the clock needs after the pill to be shown
	cardBodyGap   = 4  // between the header and the body (a key's row may reach as far into the foot)
	cardNoteY     = 4  // a note below the body's top
	keyBarY       = 20 // a key's TTL bar below its line
	keyLeftGap    = 10 // between the bar and what is left
	keyLeftRaise  = 2  // what is left, above the bar's top
	keyDeadlineY  = 4  // the deadline below the bar
)

// Refresh works out the model of the servers shown (SetSnapshot calls it
// only for a new instant) and the theme's colours, then lays them out.
func (r *keysRenderer) Refresh() {
	r.refreshes++
	r.builds++
	k := r.k
	r.model = buildKeysModel(k.servers, k.nodes, k.master)
	th := k.Theme()
	r.fg = widgets.ThemeColor(th, theme.ColorNameForeground)
	r.muted = widgets.ThemeColor(th, theme.ColorNamePlaceHolder)
	r.Layout(k.Size())
}

// keysModel is what the picture shows, worked out from the servers before
// any size is known: a card per server.
type keysModel struct{ cards []keysCard }

// keysCard is one server's card.
type keysCard struct {
	node    sim.NodeView
	inUse   bool   // the server clients talk to, among several: a thicker frame
	role    string // its role as shown
	counter string // its fencing counter
	clock   string // its clock's reading
	note    string // it is down, or the lock is free; "" when it lists keys
	keys    []keysRow
}

// keysRow is one key on a card: its line, its TTL bar and what is left.
type keysRow struct {
	line, left, deadline string
	fraction             float32 // of its TTL left: the bar's length
}

// buildKeysModel works out the cards of servers; nodes resolves their
// names and clocks, and master (an index into nodes) is the server clients
// talk to.
func buildKeysModel(servers []redissim.ServerView, nodes []sim.NodeView, master int) keysModel {
	var m keysModel
	for _, sv := range servers {
		var node sim.NodeView
		if sv.Node >= 0 && sv.Node < len(nodes) {
			node = nodes[sv.Node]
		}
		c := keysCard{node: node, inUse: sv.Node == master && len(servers) > 1, role: i18n.Term(sv.Role.String()),
			counter: i18n.F("keys.counter", "n", sv.Counter), clock: i18n.F("cluster.clock", "t", widgets.FormatTime(node.Wall))}
		if c.inUse {
			c.role = i18n.F("keys.roleInUse", "role", c.role)
		}
		switch {
		case node.Crashed:
			c.note = i18n.T("keys.down")
		case len(sv.Keys) == 0:
			c.note = i18n.F("keys.free", "key", redissim.LockKey)
		}
		if c.note == "" {
			for _, kv := range sv.Keys {
				c.keys = append(c.keys, keysRowOf(kv, node))
			}
		}
		m.cards = append(m.cards, c)
	}
	return m
}

// keysRowOf is a key's row on the card of node.
func keysRowOf(kv redissim.KeyView, node sim.NodeView) keysRow {
	row := keysRow{
		line:     i18n.F("keys.line", "key", kv.Key, "value", strconv.Quote(kv.Value), "owner", kv.Owner),
		left:     i18n.F("keys.left", "left", widgets.FormatTime(kv.Left), "ttl", widgets.FormatTime(kv.TTL)),
		deadline: i18n.F("keys.deadline", "px", kv.TTL.Milliseconds(), "node", node.Name, "t", widgets.FormatTime(node.Wall+kv.Left)),
		fraction: TTLFraction(kv),
	}
	if kv.Expired {
		row.left = i18n.T("keys.expired")
	}
	return row
}

// Text sizes of a card, in points at widgets.BaseTextSize.
const (
	keysTitleSize   = 13
	keysRoleSize    = 11.5
	keysCounterSize = 11.5
	keysLeftSize    = 11.5
	keysNoteSize    = 12
	keysLineSize    = 12.5
)

// keysSizes is what the picture takes from its theme, before scaling: the
// gap between cards (the theme's inner padding) and the size of its small
// print, a card's clock and a key's deadline (the caption text's).
type keysSizes struct{ gap, caption float32 }

// keysSizesOf reads th's sizes.
func keysSizesOf(th fyne.Theme) keysSizes {
	return keysSizes{gap: th.Size(theme.SizeNameInnerPadding), caption: th.Size(theme.SizeNameCaptionText)}
}

// The picture's size at which its cards are drawn at the sizes above (its
// panel in a 1400×900 window); a larger one scales them up to
// keysMaxScale (widgets.GrowScale), so a 2560×1440 screen's panel is not
// left with one small card at its top.
const (
	keysRefW     = 600
	keysRefH     = 300
	keysMaxScale = 1.8
)

// keysGeometry is where the cards of a model go in a picture of a size.
type keysGeometry struct {
	k            float32 // the scale of every length and text size (widgets.GrowScale)
	u            float32 // a point of the card's own lengths: k times the theme's widgets.TextScale
	sizes        keysSizes
	width, cardH float32 // every card's size
	barW         float32 // a TTL bar's length
	cards        []keysCardGeometry
}

// keysCardGeometry is where one card and what is on it go.
type keysCardGeometry struct {
	y         float32 // the card's top
	roleX     float32 // the role pill's left edge
	roleW     float32 // and its width
	counterX  float32
	showClock bool // the clock fits between the role and the counter
	rows      int  // how many of its keys fit
}

// body is the height of the cards' bodies under their headers: the most
// any card shows, its keys (two at most) or its one line; every card is
// that high where there is room, so a run whose servers hold one key each
// leaves no empty second row in each card (issue 16).
func (m keysModel) body() float32 {
	body := float32(0)
	for _, c := range m.cards {
		if c.note != "" || c.node.Crashed || len(c.keys) == 0 {
			body = max(body, cardNoteBody)
			continue
		}
		body = max(body, min(float32(len(c.keys))*keyRowH, cardMaxBody))
	}
	return body
}

// keysLayout places the cards of m in size with th's sizes: they share
// the height, none taller than a header and two keys; a card lists the
// keys that fit.
func keysLayout(m keysModel, size fyne.Size, th fyne.Theme) keysGeometry {
	n := float32(len(m.cards))
	k := widgets.GrowScale(size, fyne.NewSize(keysRefW, keysRefH), keysMaxScale)
	em := widgets.TextScale(th)
	u := em * k
	sz := keysSizesOf(th)
	g := keysGeometry{k: k, u: u, sizes: sz, width: size.Width, cardH: min((size.Height-(n-1)*sz.gap*k)/n, (cardHeadH+m.body()+cardPad)*u)}
	lw := widgets.TextWidth(i18n.F("keys.left", "left", "00.000 s", "ttl", "00.000 s"), keysLeftSize*u, false)
	g.barW = max(size.Width-2*cardPad*u-lw-keyLeftGap*u, keysBarMin*em)
	y := float32(0)
	for _, c := range m.cards {
		cg := keysCardGeometry{y: y, roleX: (cardPad+cardNameGap)*u + widgets.TextWidth(c.node.Name, keysTitleSize*u, true),
			roleW: widgets.TextWidth(c.role, keysRoleSize*u, true) + 2*rolePillInset*u}
		cw := widgets.TextWidth(c.counter, keysCounterSize*u, false)
		cg.counterX = size.Width - cardPad*u - cw
		cg.showClock = cg.roleX+cg.roleW+cardClockFit*u+widgets.TextWidth(c.clock, sz.caption*k, false) < size.Width-cardPad*u-cw-cardClockGap*u
		foot := min(y+g.cardH+cardBodyGap*u, size.Height) // a row may reach into the card's foot, not below the picture
		for body := y + (cardHeadH+cardBodyGap)*u; cg.rows < len(c.keys) && body+keyRowH*u <= foot; body += keyRowH * u {
			cg.rows++
		}
		g.cards = append(g.cards, cg)
		y += g.cardH + sz.gap*k
	}
	return g
}

// DrawnHeight is the height of what the picture draws in a box of size
// (designtab.Drawn): its cards; the box's height where they are lower
// than a header and two keys, sharing it.
func (k *Keys) DrawnHeight(size fyne.Size) float32 {
	if k.renderer == nil || len(k.renderer.model.cards) == 0 {
		return 0
	}
	g := keysLayout(k.renderer.model, size, k.Theme())
	if g.cardH < (cardHeadH+k.renderer.model.body()+cardPad)*g.u {
		return size.Height
	}
	return min(g.cards[len(g.cards)-1].y+g.cardH, size.Height)
}

// draw places the objects of the stored model's cards where its geometry
// in size says.
func (r *keysRenderer) draw(size fyne.Size) {
	m, fg, muted := r.model, r.fg, r.muted
	if len(m.cards) == 0 {
		return
	}
	g := keysLayout(m, size, r.k.Theme())
	for i, card := range m.cards {
		cg := g.cards[i]
		y := cg.y
		c := r.cards.Next()
		fill := widgets.Fade(widgets.ColorServerLink, 0.08)
		stroke := widgets.Fade(widgets.ColorServerLink, 0.6)
		if card.node.Crashed {
			fill, stroke = widgets.Fade(widgets.ColorIdle, 0.18), widgets.ColorIdle
		}
		width := float32(1)
		if card.inUse {
			width = 2.5
		}
		u, caption := g.u, g.sizes.caption*g.k
		c.resize(u, caption)
		widgets.PlaceBox(c.frame, fyne.NewPos(0, y), fyne.NewSize(g.width, g.cardH), fill, stroke, width)
		widgets.PlaceText(c.title, card.node.Name, fyne.NewPos(cardPad*u, y+cardTitleY*u), fg)
		widgets.PlaceRect(c.roleBg, fyne.NewPos(cg.roleX, y+rolePillY*u), fyne.NewSize(cg.roleW, rolePillH*u), widgets.Fade(widgets.ColorServerLink, 0.85))
		widgets.PlaceText(c.role, card.role, fyne.NewPos(cg.roleX+rolePillInset*u, y+cardHeadTextY*u), color.White)
		widgets.PlaceText(c.counter, card.counter, fyne.NewPos(cg.counterX, y+cardHeadTextY*u), fg)
		if cg.showClock {
			widgets.PlaceText(c.clock, card.clock, fyne.NewPos(cg.roleX+cg.roleW+cardClockGap*u, y+cardClockY*u), muted)
		} else {
			c.clock.Hide()
		}

		body := y + (cardHeadH+cardBodyGap)*u
		// A card squeezed below its header and note (two servers' cards
		// sharing a 1024×768 window's panel) raises its note into its
		// foot, so the note ends inside the card, not over the notes
		// under the picture; where not one of its keys' rows fits, the
		// note says its first key and what is left of its TTL in one
		// line, so a server holding the lock never looks empty.
		note := card.note
		if note == "" && cg.rows == 0 && len(card.keys) > 0 {
			k := card.keys[0]
			note = widgets.FitText(k.line+" · "+k.left, keysNoteSize*u, false, g.width-2*cardPad*u)
		}
		noteY := min(body+cardNoteY*u, y+g.cardH-fyne.MeasureText(note, keysNoteSize*u, fyne.TextStyle{}).Height-cardNoteY*u)
		switch {
		case card.node.Crashed:
			widgets.PlaceText(c.note, note, fyne.NewPos(cardPad*u, noteY), fg)
		case card.note != "":
			widgets.PlaceText(c.note, note, fyne.NewPos(cardPad*u, noteY), muted)
		case cg.rows == 0 && len(card.keys) > 0:
			widgets.PlaceText(c.note, note, fyne.NewPos(cardPad*u, noteY), fg)
		default:
			c.note.Hide()
			for _, row := range card.keys[:cg.rows] {
				r.drawKey(r.keys.Next(), row, body, g.barW, u, caption, fg, muted)
				body += keyRowH * u
			}
		}
	}
}

// TTLFraction is the share of a key's TTL still left, 0 to 1, by the
// server's clock: the length of its TTL bar.
func TTLFraction(kv redissim.KeyView) float32 {
	if kv.TTL <= 0 || kv.Left <= 0 {
		return 0
	}
	return float32(min(1, float64(kv.Left)/float64(kv.TTL)))
}

// drawKey places a key's row at y: its line, its TTL bar (amber in its
// last fifth) with what is left beside it, and its deadline; u is the
// unit of the picture's own lengths, caption its small print's size.
func (r *keysRenderer) drawKey(o *keyObjects, row keysRow, y, barW, u, caption float32, fg, muted color.Color) {
	o.resize(u, caption)
	widgets.PlaceText(o.line, row.line, fyne.NewPos(cardPad*u, y), fg)
	by := y + keyBarY*u
	widgets.PlaceRect(o.barBg, fyne.NewPos(cardPad*u, by), fyne.NewSize(barW, barH*u), widgets.Fade(widgets.ColorIdle, 0.25))
	if f := row.fraction; f > 0 {
		c := widgets.ColorOwned
		if f < 0.2 {
			c = widgets.ColorWaiting
		}
		widgets.PlaceRect(o.bar, fyne.NewPos(cardPad*u, by), fyne.NewSize(barW*f, barH*u), c)
	} else {
		o.bar.Hide()
	}
	widgets.PlaceText(o.left, row.left, fyne.NewPos((cardPad+keyLeftGap)*u+barW, by-keyLeftRaise*u), muted)
	widgets.PlaceText(o.deadline, row.deadline, fyne.NewPos(cardPad*u, by+(barH+keyDeadlineY)*u), muted)
}
