package app

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// ScenarioExt is the extension of scenario files (DESIGN.md).
const ScenarioExt = ".lockscope.json"

// MaxRecent is how many files the Open Recent menu remembers.
const MaxRecent = 5

// MaxScenarioBytes bounds what Open reads: a scenario is a few kilobytes,
// and a mistaken pick of a huge file must not hang the window.
const MaxScenarioBytes = 8 << 20

// prefRecent is the Preferences key of the recent-files list. The
// session keys (sessionKey) hold what each tab showed when the window
// closed: the scenario as a file, where it came from, the cursor and the
// file it is saved in; the tab on show is the settings' (prefMode).
const prefRecent = "recentFiles"

func sessionKey(mode, what string) string { return "session." + mode + "." + what }

// tabFile is the file a tab's scenario was opened from or saved to.
type tabFile struct {
	uri    fyne.URI
	origin string // the controller's origin it belongs to: a preset loaded since ends the link
	saved  []byte // the bytes the file held when read or written; nil when unknown
}

// windowFiles is the window's file state: each tab's file, and the file
// dialogs, which tests replace.
type windowFiles struct {
	byMode map[string]*tabFile
	// chooseOpen and chooseSave stand in for Fyne's file dialogs in
	// tests; nil shows the dialogs.
	chooseOpen func(then func(fyne.URI))
	chooseSave func(name string, exts []string, then func(fyne.URI))
	logButton  *widgets.TipButton // shows and hides the event log
	dashButton *widgets.TipButton // shows and hides the dashboard
}

// file is the tab's file, nil when its scenario is a preset or was loaded
// from elsewhere since.
func (w *Window) file(v *tabView) *tabFile {
	f := w.files.byMode[v.spec.Mode]
	if f == nil || f.origin != v.ctl.Origin() {
		return nil
	}
	return f
}

// installFiles sets up the window's file state and opens files dropped
// on the window.
func (w *Window) installFiles() {
	w.ensureFiles()
	w.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		if len(uris) > 0 {
			w.openReporting(uris[0])
		}
	})
}

// ensureFiles makes the file state on first use: the window's layout
// (fileStrip) may come before installFiles.
func (w *Window) ensureFiles() {
	if w.files == nil {
		w.files = &windowFiles{byMode: map[string]*tabFile{}}
	}
}

// closeFiles remembers the session.
func (w *Window) closeFiles() { w.SaveSession() }

// fileActions are the File menu's entries for scenario files and exports,
// with their keys; the recent files, numbered, follow Open.
func (w *Window) fileActions() []*Action {
	short := fyne.KeyModifierShortcutDefault
	out := []*Action{{Label: "menu.open", Key: fyne.KeyO, Mod: short, Do: w.Open}}
	for i, s := range w.Recent() {
		u, err := storage.ParseURI(s)
		if err != nil {
			continue
		}
		out = append(out, &Action{Label: fmt.Sprintf("%d  %s", i+1, displayPath(u)), Do: func() { w.openRecent(s, u) }})
	}
	return append(out, nil,
		&Action{Label: "menu.save", Key: fyne.KeyS, Mod: short, Do: w.Save},
		&Action{Label: "menu.saveAs", Key: fyne.KeyS, Mod: short | fyne.KeyModifierShift, Do: w.SaveAs},
		nil,
		&Action{Label: "menu.exportPNG", Key: fyne.KeyE, Mod: short, Do: w.ExportPNG},
		&Action{Label: "menu.exportTrace", Key: fyne.KeyE, Mod: short | fyne.KeyModifierShift, Do: w.ExportTrace},
		nil,
	)
}

// openRecent opens a file of the recent list; one that is gone leaves the
// list.
func (w *Window) openRecent(s string, u fyne.URI) {
	fail := func(err error) { w.report(i18n.T("files.cannotOpen"), fmt.Errorf("%s: %w", u.Name(), err)) }
	sc, data, err := readScenarioURI(u)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, storage.ErrNotExists) {
			w.removeRecent(s)
		}
		fail(err)
		return
	}
	w.LoadInBackground(sc, displayPath(u), fail, func() { w.opened(u, sc.Mode, data) })
}

// ReadScenario reads and checks a scenario file's bytes; the error names
// the field and the problem.
func ReadScenario(r io.Reader) (*sim.Scenario, []byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxScenarioBytes+1))
	if err != nil {
		return nil, nil, err
	}
	if len(data) > MaxScenarioBytes {
		return nil, nil, fmt.Errorf("scenario: larger than %d MiB: not a scenario file", MaxScenarioBytes>>20)
	}
	sc, err := sim.ParseScenario(data)
	if err != nil {
		return nil, nil, err
	}
	return sc, data, nil
}

// OpenURI loads a scenario file into its mode's tab and selects it. On
// error nothing changes and the error names the file, the field and the
// problem.
func (w *Window) OpenURI(u fyne.URI) error {
	sc, data, err := readScenarioURI(u)
	if err != nil {
		return fmt.Errorf("%s: %w", u.Name(), err)
	}
	if err := w.Load(sc, displayPath(u)); err != nil {
		return fmt.Errorf("%s: %w", u.Name(), err)
	}
	w.opened(u, sc.Mode, data)
	return nil
}

// readScenarioURI reads and checks a scenario file.
func readScenarioURI(u fyne.URI) (*sim.Scenario, []byte, error) {
	r, err := storage.Reader(u)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return ReadScenario(r)
}

// opened remembers a file loaded into mode's tab: for Save and the recent
// list.
func (w *Window) opened(u fyne.URI, mode string, data []byte) {
	w.files.byMode[mode] = &tabFile{uri: u, origin: displayPath(u), saved: data}
	w.addRecent(u)
}

// openReporting opens a file as the user asked for it: the scenario is
// recorded in the background (LoadInBackground), so a long run shows its
// progress and can be cancelled; what went wrong is shown in one dialog.
func (w *Window) openReporting(u fyne.URI) {
	fail := func(err error) { w.report(i18n.T("files.cannotOpen"), fmt.Errorf("%s: %w", u.Name(), err)) }
	sc, data, err := readScenarioURI(u)
	if err != nil {
		fail(err)
		return
	}
	w.LoadInBackground(sc, displayPath(u), fail, func() { w.opened(u, sc.Mode, data) })
}

// Open asks for a scenario file and opens it (Ctrl+O).
func (w *Window) Open() {
	if w.files.chooseOpen != nil {
		w.files.chooseOpen(w.openReporting)
		return
	}
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.report(i18n.T("files.cannotOpen"), err)
			return
		}
		if r == nil {
			return
		}
		u := r.URI()
		r.Close()
		w.openReporting(u)
	}, w.Window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	if dir := w.recentDir(); dir != nil {
		d.SetLocation(dir)
	}
	d.Show()
	d.Resize(fyne.NewSize(900, 620)) // after Show: the dialog is built there
}

// Save writes the tab's scenario to its file (Ctrl+S), or asks for one when
// it has none. A file that changed on disk since it was read or written
// is overwritten only after the user confirms.
func (w *Window) Save() {
	v := w.current()
	if v == nil || !v.ctl.Loaded() {
		return
	}
	f := w.file(v)
	if f == nil {
		w.SaveAs()
		return
	}
	if onDisk, err := readAll(f.uri); err == nil && !bytes.Equal(onDisk, f.saved) {
		msg := widget.NewLabel(i18n.F("files.overwrite.text", "file", f.uri.Name()))
		msg.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustomConfirm(i18n.T("files.overwrite.title"), i18n.T("files.overwrite.yes"), i18n.T("files.overwrite.no"), msg, func(ok bool) {
			if ok {
				w.saveReporting(v, f.uri)
			}
		}, w.Window)
		d.Resize(fyne.NewSize(520, 200))
		d.Show()
		return
	}
	w.saveReporting(v, f.uri)
}

// SaveAs asks where to save the tab's scenario (Ctrl+Shift+S). Fyne's
// save dialog asks before it replaces a file.
func (w *Window) SaveAs() {
	v := w.current()
	if v == nil || !v.ctl.Loaded() {
		return
	}
	w.chooseSave(fileStem(v.ctl)+ScenarioExt, []string{".json"}, func(u fyne.URI) { w.saveReporting(v, u) })
}

func (w *Window) saveReporting(v *tabView, u fyne.URI) {
	if err := w.SaveURI(v.spec.Mode, u); err != nil {
		w.report(i18n.T("files.notSaved"), err)
		v.status.SetText(v.ctl.Status())
	}
}

// SaveURI writes a tab's scenario to u, which becomes the tab's file. A
// failed write (read-only folder, full disk) leaves the file as it was and
// the tab's state untouched.
func (w *Window) SaveURI(mode string, u fyne.URI) error {
	v := w.tab(mode)
	if v == nil || !v.ctl.Loaded() {
		return fmt.Errorf("save: no %s scenario loaded", mode)
	}
	data, err := v.ctl.Saveable().Marshal()
	if err != nil {
		return err
	}
	if err := writeURI(u, data); err != nil {
		return fmt.Errorf("%s: %w", u.Name(), err)
	}
	v.ctl.Saved(data)
	origin := displayPath(u)
	v.ctl.origin = origin
	v.ctl.note = i18n.F("status.saved", "file", origin)
	w.files.byMode[mode] = &tabFile{uri: u, origin: origin, saved: data}
	w.addRecent(u)
	v.syncControls()
	v.show()
	return nil
}

// chooseSave asks for a file to write, with a proposed name.
func (w *Window) chooseSave(name string, exts []string, then func(fyne.URI)) {
	if w.files.chooseSave != nil {
		w.files.chooseSave(name, exts, then)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			w.report(i18n.T("files.cannotWrite"), err)
			return
		}
		if wc == nil {
			return
		}
		u := wc.URI()
		wc.Close()
		then(u)
	}, w.Window)
	d.SetFileName(name)
	d.SetFilter(storage.NewExtensionFileFilter(exts))
	if dir := w.recentDir(); dir != nil {
		d.SetLocation(dir)
	}
	d.Show()
	d.Resize(fyne.NewSize(900, 620)) // after Show: the dialog is built there
}

// ExportTrace asks for a file and writes every event of the tab's run to
// it: JSON lines, or CSV when the name ends in .csv.
func (w *Window) ExportTrace() {
	v := w.current()
	if v == nil || !v.ctl.Loaded() {
		return
	}
	w.chooseSave(fileStem(v.ctl)+"-trace.jsonl", []string{".jsonl", ".json", ".csv"}, func(u fyne.URI) {
		if err := w.ExportTraceURI(v.spec.Mode, u); err != nil {
			w.report(i18n.T("files.traceNotWritten"), err)
		}
	})
}

// ExportTraceURI writes a tab's trace to u, as CSV when u ends in .csv
// and as JSON lines otherwise.
func (w *Window) ExportTraceURI(mode string, u fyne.URI) error {
	v := w.tab(mode)
	if v == nil || !v.ctl.Loaded() {
		return fmt.Errorf("trace: no %s scenario loaded", mode)
	}
	events := v.ctl.Recording().Events()
	err := streamURI(u, func(w io.Writer) error {
		tw := sim.NewTraceWriter(w, strings.EqualFold(u.Extension(), ".csv"))
		return errors.Join(events.Each(tw.Write), tw.Flush())
	})
	if err != nil {
		return fmt.Errorf("%s: %w", u.Name(), err)
	}
	v.ctl.note = i18n.F("status.traceWritten", "n", events.Len(), "file", displayPath(u))
	v.show()
	return nil
}

// ExportPNG asks for a file and writes the tab's picture at the cursor
// (Ctrl+E): the cluster, state picture, timeline and metrics, drawn
// again off screen at twice the scale, under a caption that says what it
// shows.
func (w *Window) ExportPNG() {
	v := w.current()
	if v == nil || !v.ctl.Loaded() {
		return
	}
	at := strings.ReplaceAll(widgets.FormatTime(v.ctl.Cursor()), " ", "")
	w.chooseSave(fileStem(v.ctl)+"-"+at+".png", []string{".png"}, func(u fyne.URI) {
		if err := w.ExportPNGURI(v.spec.Mode, u); err != nil {
			w.report(i18n.T("files.pictureNotWritten"), err)
		}
	})
}

// ExportPNGURI writes a tab's picture to u at the size the pictures have
// on screen (the window's default size when not shown), at PictureScale.
func (w *Window) ExportPNGURI(mode string, u fyne.URI) error {
	v := w.tab(mode)
	if v == nil || !v.ctl.Loaded() {
		return fmt.Errorf("picture: no %s scenario loaded", mode)
	}
	size := v.pics.Content().Size()
	if size.Width < 600 || size.Height < 400 {
		size = PictureSize
	} else {
		size.Height += 70 // room for the caption the picture adds on top
	}
	img, err := RenderController(v.ctl, size, PictureScale)
	if err != nil {
		return err
	}
	data, err := EncodePNG(img)
	if err != nil {
		return err
	}
	if err := writeURI(u, data); err != nil {
		return fmt.Errorf("%s: %w", u.Name(), err)
	}
	b := img.Bounds()
	v.ctl.note = i18n.F("status.exported", "w", b.Dx(), "h", b.Dy(), "file", displayPath(u))
	v.show()
	return nil
}

// report shows one dialog with the problem, under a title saying what failed.
func (w *Window) report(title string, err error) {
	msg := widget.NewLabel(widgets.ErrorText(err))
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(title, i18n.T("dialog.ok"), msg, w.Window)
	d.SetIcon(theme.ErrorIcon())
	d.Resize(fyne.NewSize(560, 220))
	d.Show()
}

// writeURI writes data to u. A local file is written next to itself and
// renamed over it once complete, so a failed write (full disk, read-only
// folder) leaves the old file whole.
func writeURI(u fyne.URI, data []byte) error {
	return streamURI(u, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// streamURI writes what write produces to u, through a temporary file and
// a rename for a local file, so a large export never sits in memory whole.
func streamURI(u fyne.URI, write func(io.Writer) error) error {
	if u.Scheme() != "file" {
		wc, err := storage.Writer(u)
		if err != nil {
			return err
		}
		bw := bufio.NewWriter(wc)
		if err := errors.Join(write(bw), bw.Flush()); err != nil {
			wc.Close()
			return err
		}
		return wc.Close()
	}
	return writeFileStream(u.Path(), write)
}

// writeFileAtomic writes a file through a temporary file in the same
// folder and a rename.
func writeFileAtomic(path string, data []byte) error {
	return writeFileStream(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeFileStream is writeFileAtomic for what write produces.
func writeFileStream(path string, write func(io.Writer) error) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return errors.New("is a folder")
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	return nil
}

// readAll reads what a URI holds now.
func readAll(u fyne.URI) ([]byte, error) {
	r, err := storage.Reader(u)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, MaxScenarioBytes+1))
}

// displayPath is how a file is named in the status line and the recent
// menu: its path, with the home folder as ~.
func displayPath(u fyne.URI) string {
	if u.Scheme() != "file" {
		return u.String()
	}
	p := u.Path()
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}

// fileStem proposes a file name for what a tab shows: its file's or
// preset's name, without the extension, and "-edited" after it when the
// run was edited, so the file does not pass for the preset itself.
func fileStem(c *Controller) string {
	o := filepath.Base(c.Origin())
	o = strings.TrimSuffix(o, ScenarioExt)
	o = strings.TrimSuffix(o, ".json")
	if o == "" || o == "." || o == string(filepath.Separator) {
		o = "scenario"
	}
	o = strings.ReplaceAll(o, " ", "-")
	if c.Edited() && !strings.HasSuffix(o, "-edited") {
		o += "-edited"
	}
	return o
}

// Recent lists the recent files, newest first.
func (w *Window) Recent() []string {
	return fyne.CurrentApp().Preferences().StringList(prefRecent)
}

// addRecent puts u first in the recent list, which keeps MaxRecent.
func (w *Window) addRecent(u fyne.URI) {
	list := []string{u.String()}
	for _, s := range w.Recent() {
		if s != u.String() && len(list) < MaxRecent {
			list = append(list, s)
		}
	}
	fyne.CurrentApp().Preferences().SetStringList(prefRecent, list)
	w.refreshRecent()
}

// removeRecent drops a file that could not be opened from the list.
func (w *Window) removeRecent(s string) {
	var list []string
	for _, r := range w.Recent() {
		if r != s {
			list = append(list, r)
		}
	}
	fyne.CurrentApp().Preferences().SetStringList(prefRecent, list)
	w.refreshRecent()
}

// refreshRecent shows the recent list in the File menu.
func (w *Window) refreshRecent() {
	if w.menus != nil {
		w.refreshMenu()
	}
}

// recentDir is the folder of the newest recent file, where the file
// dialogs start.
func (w *Window) recentDir() fyne.ListableURI {
	for _, s := range w.Recent() {
		u, err := storage.ParseURI(s)
		if err != nil {
			continue
		}
		dir, err := storage.Parent(u)
		if err != nil {
			continue
		}
		if l, err := storage.ListerForURI(dir); err == nil {
			return l
		}
	}
	return nil
}

// SaveSession remembers what each tab shows — its scenario, where it came
// from, its cursor and its file — for the next start.
func (w *Window) SaveSession() {
	p := fyne.CurrentApp().Preferences()
	for _, v := range w.tabs {
		m := v.spec.Mode
		if !v.ctl.Loaded() {
			p.RemoveValue(sessionKey(m, "scenario"))
			continue
		}
		data, err := v.ctl.Saveable().Marshal()
		if err != nil {
			continue
		}
		p.SetString(sessionKey(m, "scenario"), string(data))
		p.SetString(sessionKey(m, "origin"), v.ctl.Origin())
		p.SetString(sessionKey(m, "cursor"), strconv.FormatInt(int64(v.ctl.Cursor()), 10))
		file := ""
		if f := w.file(v); f != nil {
			file = f.uri.String()
		}
		p.SetString(sessionKey(m, "file"), file)
	}
}

// RestoreSession brings back what SaveSession remembered. A tab whose
// remembered scenario no longer reads keeps its preset.
func (w *Window) RestoreSession() {
	p := fyne.CurrentApp().Preferences()
	for _, v := range w.tabs {
		m := v.spec.Mode
		data := p.String(sessionKey(m, "scenario"))
		if data == "" {
			continue
		}
		sc, err := sim.ParseScenario([]byte(data))
		if err != nil {
			fyne.LogError("restoring the "+m+" tab", err)
			continue
		}
		origin := p.StringWithFallback(sessionKey(m, "origin"), sc.Name)
		if err := v.LoadScenario(sc, origin); err != nil {
			fyne.LogError("restoring the "+m+" tab", err)
			continue
		}
		if s := p.String(sessionKey(m, "file")); s != "" {
			if u, err := storage.ParseURI(s); err == nil {
				// What the file holds now is unknown: Save asks first if it differs.
				w.files.byMode[m] = &tabFile{uri: u, origin: origin}
				if b, err := readAll(u); err == nil && bytes.Equal(b, []byte(data)) {
					w.files.byMode[m].saved = b
				}
			}
		}
		if ns, err := strconv.ParseInt(p.String(sessionKey(m, "cursor")), 10, 64); err == nil {
			v.seek(time.Duration(ns))
		}
		v.ctl.note = i18n.T("status.restored")
		v.show()
	}
}

// fileStrip is the dashboard's and the event log's switches and Open, Save and Export PNG as
// icon buttons at the right end of the tab strip, where the tabs leave
// room, for the window's content.
func (w *Window) fileStrip() fyne.CanvasObject {
	w.ensureFiles()
	w.files.logButton = widgets.NewTipButton(i18n.T("eventlog.button"), theme.ListIcon(), func() { w.ShowEventLog(!EventLogShown()) }, w.tips,
		"eventlog.button.tip")
	if EventLogShown() {
		w.files.logButton.Importance = widget.HighImportance
	}
	w.files.dashButton = widgets.NewTipButton(i18n.T("dashboard.button"), theme.InfoIcon(), func() { w.ShowDashboard(!DashboardShown()) }, w.tips,
		"dashboard.button.tip")
	if DashboardShown() {
		w.files.dashButton.Importance = widget.HighImportance
	}
	bar := container.NewHBox(layout.NewSpacer(), w.files.dashButton, w.files.logButton,
		widgets.NewTipButton("", theme.FolderOpenIcon(), w.Open, w.tips,
			"files.open.tip"),
		widgets.NewTipButton("", theme.DocumentSaveIcon(), w.Save, w.tips,
			"files.save.tip"),
		widgets.NewTipButton("", theme.FileImageIcon(), w.ExportPNG, w.tips,
			"files.export.tip"),
	)
	return container.NewVBox(bar)
}
