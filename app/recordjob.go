package app

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// A recording that takes longer than progressAfter shows a progress
// dialog; progressRedraw is how often the dialog is redrawn at most.
const (
	progressAfter  = 500 * time.Millisecond
	progressRedraw = 100 * time.Millisecond
)

// recordJob is one scenario being recorded off the UI goroutine for the
// window. Only cancelled is shared with the recording goroutine; the
// dialog and its widgets are touched on the UI goroutine alone.
type recordJob struct {
	cancelled atomic.Bool
	done      chan struct{} // closed once the result is on screen (or reported)
	dialog    dialog.Dialog
	bar       *widget.ProgressBar
	label     *widget.Label
}

// LoadInBackground records sc off the UI goroutine and then shows it in
// its mode's tab like Load; then runs after a successful load, fail with
// the error of a refused or failed one (nothing changes then), both on the
// UI goroutine. The window stays responsive meanwhile and what is on
// screen stays until the new run is ready; a recording that takes more
// than half a second shows its progress in a dialog whose Cancel stops
// it. Starting another load cancels this one.
func (w *Window) LoadInBackground(sc *sim.Scenario, origin string, fail func(error), then func()) {
	w.startLoad(sc, origin, fail, then)
}

// startLoad is LoadInBackground returning the job (nil when sc was
// refused at once), for tests to wait on.
func (w *Window) startLoad(sc *sim.Scenario, origin string, fail func(error), then func()) *recordJob {
	v := w.tab(sc.Mode)
	if v == nil {
		fail(fmt.Errorf("mode: no %q tab in this window (tabs: %s)", sc.Mode, strings.Join(w.Modes(), ", ")))
		return nil
	}
	// A bad file is told at once, before anything runs in the background.
	if err := sc.Validate(); err != nil {
		fail(err)
		return nil
	}
	if w.job != nil {
		w.job.cancelled.Store(true)
	}
	job := &recordJob{done: make(chan struct{})}
	w.job = job
	start := time.Now()
	var lastDrawn time.Time // read and written by the recording goroutine only
	progress := func(at, end time.Duration) bool {
		if job.cancelled.Load() {
			return false
		}
		if now := time.Now(); now.Sub(start) >= progressAfter && now.Sub(lastDrawn) >= progressRedraw {
			lastDrawn = now
			fyne.Do(func() { w.showProgress(job, at, end) })
		}
		return true
	}
	go func() {
		sc, rec, err := v.ctl.Record(sc, sim.RecordOptions{Progress: progress})
		fyne.Do(func() {
			defer close(job.done)
			replaced := w.job != job
			if !replaced {
				w.job = nil
			}
			if job.dialog != nil {
				job.dialog.Hide()
			}
			switch {
			case replaced:
				return // a newer load is under way: this run is not wanted
			case errors.Is(err, sim.ErrCancelled):
				// Said on the tab on show: the file's tab may be another.
				on := w.current()
				if on == nil {
					on = v
				}
				on.ctl.note = i18n.T("status.recordCancelled")
				on.show()
				return
			case err != nil:
				fail(err)
				return
			}
			v.stopTicker()
			v.ctl.Install(sc, rec, origin)
			v.showRun()
			w.appTabs.SelectIndex(w.index(v))
			if then != nil {
				then()
			}
		})
	}()
	return job
}

// showProgress shows or updates a job's progress dialog.
func (w *Window) showProgress(job *recordJob, at, end time.Duration) {
	if w.job != job {
		return // finished or replaced meanwhile
	}
	if job.dialog == nil {
		job.bar = widget.NewProgressBar()
		job.label = widget.NewLabel("")
		job.label.Wrapping = fyne.TextWrapWord // the dialog keeps its width as the figures change
		job.dialog = dialog.NewCustom(i18n.T("record.progress.title"), i18n.T("record.cancel"),
			container.NewVBox(job.label, job.bar), w.Window)
		job.dialog.SetOnClosed(func() { job.cancelled.Store(true) })
		job.dialog.Resize(fyne.NewSize(460, 160))
		job.dialog.Show()
	}
	if end > 0 {
		job.bar.SetValue(float64(at) / float64(end))
	}
	job.label.SetText(i18n.F("record.progress", "at", widgets.FormatTime(at), "end", widgets.FormatTime(end)))
}
