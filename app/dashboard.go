package app

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// prefDashboard is the Preferences key of whether the dashboard shows.
const prefDashboard = "dashboard"

// dashboardEvery is how often a playing run's dashboard is worked out
// again: a long run's figures go over every try and renewal recorded.
const dashboardEvery = 250 * time.Millisecond

// Metrics is the dashboard of the run at the cursor (sim.Metrics).
func (c *Controller) Metrics() sim.Metrics {
	if c.rec == nil {
		return sim.Metrics{}
	}
	return c.rec.Metrics(c.cursor)
}

// DashboardShown reports whether the tabs show the dashboard beside the
// pictures: the user's last choice, off at first.
func DashboardShown() bool {
	if a := fyne.CurrentApp(); a != nil {
		return a.Preferences().Bool(prefDashboard)
	}
	return false
}

// ShowDashboard shows or hides the dashboard of every tab and remembers
// the choice.
func (w *Window) ShowDashboard(on bool) {
	fyne.CurrentApp().Preferences().SetBool(prefDashboard, on)
	for _, v := range w.tabs {
		v.pics.ShowDashboard(on)
		v.dash.follow(true)
	}
	if w.files != nil && w.files.dashButton != nil {
		w.files.dashButton.Importance = widget.MediumImportance
		if on {
			w.files.dashButton.Importance = widget.HighImportance
		}
		w.files.dashButton.Refresh()
	}
	w.refreshMenu()
}

// tabDashboard is a tab's dashboard beside its pictures, brought to the
// cursor as the run plays.
type tabDashboard struct {
	tab *tabView

	forRec  *sim.Recording // the run, instant and time the dashboard was last worked out for
	at      time.Duration
	shownAt time.Time
}

// newTabDashboard builds the tab's dashboard and puts it beside the
// pictures.
func newTabDashboard(v *tabView) *tabDashboard {
	v.pics.Dashboard = widgets.NewDashboard()
	v.pics.dashScroll = container.NewVScroll(v.pics.Dashboard)
	v.pics.sideDash = widgets.NewPanel("panel.dashboard", v.pics.dashScroll)
	v.pics.ShowDashboard(DashboardShown())
	return &tabDashboard{tab: v}
}

// ShowDashboard shows or hides the dashboard beside the pictures.
func (p *Pictures) ShowDashboard(on bool) {
	if on == p.dashOn {
		return
	}
	p.dashOn = on
	p.arrangeSide()
}

// follow brings a shown dashboard to the cursor: at once when paused or
// asked to (now), else at most every dashboardEvery.
func (d *tabDashboard) follow(now bool) {
	v := d.tab
	p := v.pics
	if !p.dashOn || p.Dashboard == nil || !v.ctl.Loaded() {
		return
	}
	at, t := v.ctl.Cursor(), v.clock.now()
	if !now && d.forRec == v.ctl.Recording() && at == d.at {
		return
	}
	if !now && v.ctl.Playing() && t.Sub(d.shownAt) < dashboardEvery {
		return
	}
	d.forRec, d.at, d.shownAt = v.ctl.Recording(), at, t
	p.Dashboard.SetMetrics(v.ctl.Metrics())
	p.dashScroll.Refresh() // the dashboard's height follows its figures
}
