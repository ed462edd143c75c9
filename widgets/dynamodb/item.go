package dynamodb

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	dynamodbsim "github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/widgets"
)

// Item is the DynamoDB lock's state picture: the lock item as the table
// holds it (partition key, ownerName, recordVersionNumber, leaseDuration),
// and under it each client: the holder's version and how long since its
// last write on its own clock, each waiter's last-seen version and how long
// until, on its own clock, that version has stood a whole leaseDuration,
// with a bar that empties as it runs.
type Item struct {
	widget.BaseWidget
	view  *dynamodbsim.View
	nodes []sim.NodeView
	widgets.OnShow

	renderer *itemRenderer
}

// NewItem returns an empty picture; SetSnapshot fills it.
func NewItem() *Item {
	it := &Item{}
	it.ExtendBaseWidget(it)
	return it
}

// SetSnapshot shows the DynamoDB view of a snapshot.
func (it *Item) SetSnapshot(s *sim.Snapshot) {
	if !it.Take(s) {
		return
	}
	it.view, it.nodes = nil, nil
	if s != nil {
		it.view, it.nodes = dynamodbsim.ViewOf(s), s.Nodes
	}
	it.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (it *Item) CreateRenderer() fyne.WidgetRenderer {
	r := &itemRenderer{it: it, texts: widgets.NewTextPool(widgets.ToneTextSize, false), bold: widgets.NewTextPool(widgets.ToneTextSize, true),
		rects: widgets.NewRectPool()}
	r.pools = widgets.Pools{r.rects, r.texts, r.bold}
	it.renderer = r
	r.Refresh()
	return r
}

// itemModel is what the picture shows, worked out before any size is
// known: its rows, and for each how soon it gives way in a box too short
// for all (0: never; the highest first).
type itemModel struct {
	rows  []widgets.ToneLine
	spare []int
	owner []int // each row's client, in the order shown; -1 for the item's rows
}

// How soon a row gives way in a short box: the item's counts first, then
// how long ago it was written, a client's muted line, and the item's
// version and leaseDuration (the clients' lines name the version they
// hold or saw); the item's owner and each client's state stay.
const (
	keepRow = iota
	spareVersion
	spareClientDetail
	spareAge
	spareWrites
)

func buildItemModel(v *dynamodbsim.View, nodes []sim.NodeView) itemModel {
	var m itemModel
	if v == nil {
		return m
	}
	who := -1
	addSpare := func(r widgets.ToneLine, spare int) {
		m.rows = append(m.rows, r)
		m.spare = append(m.spare, spare)
		m.owner = append(m.owner, who)
	}
	add := func(r widgets.ToneLine) { addSpare(r, keepRow) }
	table := dynamodbsim.TableName
	if v.Table >= 0 && v.Table < len(nodes) {
		table = nodes[v.Table].Name
	}
	add(widgets.ToneLine{Text: i18n.F("dynamodb.item.title", "table", table), Bold: true, Bar: -1})
	if !v.Item.Exists {
		add(widgets.ToneLine{Text: i18n.T("dynamodb.item.none"), Tone: widgets.ToneMuted, Bar: -1})
	} else {
		add(widgets.ToneLine{Text: i18n.F("dynamodb.item.owner", "key", v.Item.Key, "owner", v.Item.Owner), Bar: -1})
		addSpare(widgets.ToneLine{Text: i18n.F("dynamodb.item.rvn", "rvn", v.Item.RVN, "lease", widgets.ShortTime(v.Item.Lease)), Bar: -1}, spareVersion)
		addSpare(widgets.ToneLine{Text: i18n.F("dynamodb.item.age", "age", widgets.ShortTime(v.Item.Age)), Tone: widgets.ToneMuted, Bar: -1}, spareAge)
	}
	addSpare(widgets.ToneLine{Text: i18n.F("dynamodb.item.writes", "writes", v.Writes, "refused", v.Refused), Tone: widgets.ToneMuted, Bar: -1}, spareWrites)
	// Those who believe they hold it first, then the waiters, the nearest
	// to a takeover first: a short box (a crowd of clients) keeps the
	// holders, and says how many it leaves out.
	order := widgets.Ranked(v.Clients, clientRank, rankSeen, func(c dynamodbsim.ClientView) time.Duration { return c.Left })
	for i, c := range order {
		who = i
		name := ""
		if c.Node < len(nodes) {
			name = nodes[c.Node].Name
		}
		switch {
		case c.Believes || c.RVN != "":
			t := widgets.ToneHolding
			if !c.Believes {
				t = widgets.ToneDanger
			}
			add(widgets.ToneLine{Text: i18n.F("dynamodb.client.holds", "client", name, "rvn", c.RVN, "since", widgets.ShortTime(c.Since), "rate", widgets.ClockRate(c.Rate)), Tone: t, Bold: true, Bar: -1})
			switch {
			case c.Held && c.Paused:
				add(widgets.ToneLine{Text: i18n.T("dynamodb.client.heartbeatPaused"), Tone: widgets.ToneDanger, Bar: -1})
			case c.Held && c.Monitor:
				addSpare(widgets.ToneLine{Text: i18n.T("dynamodb.client.heartbeatingMonitor"), Tone: widgets.ToneMuted, Bar: -1}, spareClientDetail)
			case c.Held:
				addSpare(widgets.ToneLine{Text: i18n.T("dynamodb.client.heartbeating"), Tone: widgets.ToneMuted, Bar: -1}, spareClientDetail)
			case c.Believes:
				add(widgets.ToneLine{Text: i18n.T("dynamodb.client.dropped"), Tone: widgets.ToneDanger, Bar: -1})
			default:
				add(widgets.ToneLine{Text: i18n.T("dynamodb.client.told"), Tone: widgets.ToneDanger, Bar: -1})
			}
		case c.Waiting && c.Seen:
			lease := c.Left
			if v.Item.Lease > 0 {
				lease = v.Item.Lease
			}
			text := i18n.F("dynamodb.client.waiting", "client", name, "rvn", c.SeenRVN, "owner", c.SeenOwner, "left", widgets.ShortTime(c.Left), "rate", widgets.ClockRate(c.Rate))
			if c.Left <= 0 {
				text = i18n.F("dynamodb.client.takeOver", "client", name, "rvn", c.SeenRVN, "rate", widgets.ClockRate(c.Rate))
			}
			add(widgets.ToneLine{Text: text, Tone: widgets.ToneWaiting, Bar: widgets.LeaseFraction(c.Left, lease)})
			addSpare(widgets.ToneLine{Text: i18n.F("dynamodb.client.givesUp", "left", widgets.ShortTime(max(c.GivesUp, 0))), Tone: widgets.ToneMuted, Bar: -1}, spareClientDetail)
		case c.Waiting:
			add(widgets.ToneLine{Text: i18n.F("dynamodb.client.reading", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneWaiting, Bar: -1})
		default:
			add(widgets.ToneLine{Text: i18n.F("dynamodb.client.idle", "client", name), Tone: widgets.ToneMuted, Bar: -1})
		}
	}
	return m
}

// The order of the clients' rows (clientRank).
const (
	rankHolding = iota
	rankSeen
	rankReading
	rankIdle
)

// clientRank is where a client's rows go in the picture.
func clientRank(c dynamodbsim.ClientView) int {
	switch {
	case c.Believes || c.RVN != "":
		return rankHolding
	case c.Waiting && c.Seen:
		return rankSeen
	case c.Waiting:
		return rankReading
	}
	return rankIdle
}

// Lengths of the picture, in points at widgets.BaseTextSize (times k).
const (
	itemPad  = 8
	itemMinW = 300
	itemMinH = 120
)

// itemRefSize is the size the picture is drawn at its own sizes.
var itemRefSize = fyne.NewSize(560, 360)

// itemGeometry places the model's rows. In a box too short for all of
// them the spare ones give way, the sparest first, and a row that would
// still end below the box is left out: nothing is drawn over the notes
// under the picture.
type itemGeometry struct {
	k      float32
	ys     []float32 // each row's top; below 0 for a row left out
	barW   float32
	height float32 // of every row: what the picture would draw in a box tall enough
	// more is how many clients the box leaves out, in whole clients, said
	// on a line at moreY (widgets.WholeLines).
	more  int
	moreY float32
}

func itemLayout(m itemModel, size fyne.Size, th fyne.Theme) itemGeometry {
	k := widgets.GrowScale(size, itemRefSize, widgets.MostGrowth) * widgets.TextScale(th)
	g := itemGeometry{k: k, barW: max(size.Width-2*itemPad*k, 40)}
	rowH := func(i int) float32 { return m.rows[i].Height(k) }
	shown := make([]bool, len(m.rows))
	total := 2 * itemPad * k
	for i := range m.rows {
		shown[i] = true
		total += rowH(i)
	}
	g.height = total
	for total > size.Height {
		give := -1
		for i := range m.rows {
			if shown[i] && m.spare[i] > keepRow && (give < 0 || m.spare[i] >= m.spare[give]) {
				give = i
			}
		}
		if give < 0 {
			break
		}
		shown[give] = false
		total -= rowH(give)
	}
	y := itemPad * k
	var tops, heights []float32
	var owner, rows []int // the clients' rows shown, and whose each is
	for i := range m.rows {
		g.ys = append(g.ys, -1)
		switch {
		case !shown[i]:
		case m.owner[i] >= 0:
			tops, heights = append(tops, y), append(heights, rowH(i))
			owner, rows = append(owner, m.owner[i]), append(rows, i)
			y += rowH(i)
		case y+rowH(i) <= size.Height:
			g.ys[i] = y
			y += rowH(i)
		}
	}
	n, more, moreY := widgets.WholeLines(tops, heights, owner, size.Height, widgets.ToneRowH*k)
	for j := range n {
		g.ys[rows[j]] = tops[j]
	}
	g.more, g.moreY = more, moreY
	return g
}

// DrawnHeight implements designtab.Drawn.
func (it *Item) DrawnHeight(size fyne.Size) float32 {
	if it.renderer == nil {
		return size.Height
	}
	return min(itemLayout(it.renderer.model, size, it.Theme()).height, size.Height)
}

type itemRenderer struct {
	it                *Item
	refreshes, builds int
	model             itemModel
	colors            widgets.Tones
	texts, bold       *widgets.Pool[*canvas.Text]
	rects             *widgets.Pool[*canvas.Rectangle]
	pools             widgets.Pools
	objects           []fyne.CanvasObject
}

func (r *itemRenderer) Destroy() {}

func (r *itemRenderer) MinSize() fyne.Size {
	em := widgets.TextScale(r.it.Theme())
	return fyne.NewSize(itemMinW*em, itemMinH*em)
}

func (r *itemRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh builds the model (SetSnapshot calls it only for a new instant)
// and takes the theme's colours, then lays them out.
func (r *itemRenderer) Refresh() {
	r.refreshes++
	r.builds++
	r.model = buildItemModel(r.it.view, r.it.nodes)
	th := r.it.Theme()
	r.colors = widgets.TonesOf(th)
	r.Layout(r.it.Size())
}

// Layout places the pooled objects of the stored model in size.
func (r *itemRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	g := itemLayout(r.model, size, r.it.Theme())
	if g.more > 0 && g.moreY+widgets.ToneRowH*g.k <= size.Height {
		more := widgets.ToneLine{Text: i18n.F("dynamodb.client.more", "n", g.more), Tone: widgets.ToneMuted, Bar: -1}
		widgets.PlaceToneRow(r.texts, r.bold, r.rects, more, g.k, fyne.NewPos(itemPad*g.k, g.moreY), g.barW, r.colors)
	}
	for i, row := range r.model.rows {
		if g.ys[i] < 0 {
			continue // left out of a short box
		}
		widgets.PlaceToneRow(r.texts, r.bold, r.rects, row, g.k, fyne.NewPos(itemPad*g.k, g.ys[i]), g.barW, r.colors)
	}
	if objs := r.pools.Finish(); objs != nil {
		r.objects = objs
		widgets.Repaint(r.it)
	}
}
