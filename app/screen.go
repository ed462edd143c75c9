package app

import "fyne.io/fyne/v2"

// MinUsableSize is the smallest window LockScope is laid out for: every
// control and picture reachable, nothing overlapping (a 1024×768 screen
// less a title bar and a menu bar). A test holds the window's content to it.
var MinUsableSize = fyne.NewSize(1024, 700)

// windowDecoration is room left on the screen for the title bar and
// borders a window manager adds around the window's content.
var windowDecoration = fyne.NewSize(16, 64)

// fitWindow is the size the window opens at on a screen whose usable area
// (the work area: the screen less docks and panels) is screen, in Fyne
// units. The size the user left it at comes back only if it still fits;
// otherwise a screen up to 1440 wide is filled (a laptop has no room to
// spare), a larger one mostly, so the timeline and the cluster grow. An
// unknown screen (zero) keeps the saved size or DefaultSize.
func fitWindow(saved fyne.Size, hasSaved bool, screen fyne.Size) fyne.Size {
	if screen.Width <= 0 || screen.Height <= 0 {
		if hasSaved {
			return saved
		}
		return DefaultSize
	}
	avail := fyne.NewSize(screen.Width-windowDecoration.Width, screen.Height-windowDecoration.Height)
	if hasSaved && saved.Width <= avail.Width && saved.Height <= avail.Height {
		return saved
	}
	if screen.Width <= 1440 {
		return avail
	}
	return fyne.NewSize(avail.Width*0.9, avail.Height*0.9)
}
