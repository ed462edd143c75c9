package app

import (
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
)

// FrameInterval is the real time between two frames while playing. When
// paused no timer runs at all.
const FrameInterval = time.Second / 30

// frameClock plays a tab: a frame source that runs exactly while the
// controller plays, and the wall clock each frame advances the run by.
type frameClock struct {
	tab *tabView

	frames frameSource
	now    func() time.Time
	last   time.Time // the last frame's wall-clock time
}

func newFrameClock(v *tabView) *frameClock {
	return &frameClock{tab: v, frames: &tickerFrames{}, now: time.Now}
}

// sync runs the frame source exactly while the controller plays.
func (f *frameClock) sync() {
	if f.tab.ctl.Playing() {
		f.start()
	} else {
		f.stop()
	}
}

func (f *frameClock) start() {
	if f.frames.Running() {
		return
	}
	f.last = f.now()
	f.frames.Start(f.frame)
}

func (f *frameClock) stop() { f.frames.Stop() }

// frame advances a playing run by the real time since the last frame.
func (f *frameClock) frame() {
	if !f.frames.Running() {
		return
	}
	v := f.tab
	now := f.now()
	v.ctl.Advance(now.Sub(f.last))
	f.last = now
	if !v.ctl.Playing() {
		f.stop()
	}
	v.show()
}

// frameSource calls a frame function on the UI goroutine while running.
type frameSource interface {
	Start(frame func())
	Stop()
	Running() bool
}

// tickerFrames is the frame source of the window: a time.Ticker whose
// ticks reach the UI goroutine through fyne.Do. It exists only while
// playing, so a paused window runs no timer at all.
type tickerFrames struct {
	stop    chan struct{}
	pending atomic.Bool // a frame is queued: drop ticks rather than pile them up
}

// Start implements frameSource; call it on the UI goroutine.
func (t *tickerFrames) Start(frame func()) {
	if t.stop != nil {
		return
	}
	stop := make(chan struct{})
	t.stop = stop
	go func() {
		tk := time.NewTicker(FrameInterval)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				if t.pending.CompareAndSwap(false, true) {
					fyne.Do(func() {
						t.pending.Store(false)
						frame()
					})
				}
			}
		}
	}()
}

// Stop implements frameSource; call it on the UI goroutine.
func (t *tickerFrames) Stop() {
	if t.stop != nil {
		close(t.stop)
		t.stop = nil
	}
}

// Running implements frameSource.
func (t *tickerFrames) Running() bool { return t.stop != nil }
