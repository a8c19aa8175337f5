#!/usr/bin/python3
"""GTK 3, Qt 5 and Tk as X11 clipboard peers for pb's tests.

Usage: x11-toolkit-peer.py TOOLKIT MODE [FILE]   (DISPLAY names the display)

  TOOLKIT   gtk (python3-gi, gir1.2-gtk-3.0), qt (python3-pyqt5) or
            tk (python3-tk)
  own FILE  own CLIPBOARD with the UTF-8 text in FILE the way the toolkit's
            programs do, print "ready" once the server says it owns it,
            then serve until killed
  store KIND FILE
            (gtk only) own CLIPBOARD with the text (KIND text) or the
            image (KIND image, any format GdkPixbuf reads) in FILE, print
            "ready", and on SIGUSR1 call gtk_clipboard_store(), print
            "stored in N ms" and exit, as a GTK program does when it quits
  paste     write the CLIPBOARD's text, as the toolkit reads it, to
            standard output as UTF-8; exit 1 when the toolkit reads none
  targets   print the CLIPBOARD's types as the toolkit lists them, one a
            line (X targets for GTK and Tk, MIME types for Qt)
  check     load the toolkit and exit

Exit status 3 when the toolkit cannot be loaded (the message names the
Debian package to install).
"""
import os
import sys

PACKAGES = {"gtk": "python3-gi gir1.2-gtk-3.0", "qt": "python3-pyqt5", "tk": "python3-tk"}


def load(toolkit):
    try:
        if toolkit == "gtk":
            import gi
            gi.require_version("Gtk", "3.0")
            gi.require_version("Gdk", "3.0")
            from gi.repository import Gdk, Gtk
            return Gtk, Gdk
        if toolkit == "qt":
            os.environ["QT_QPA_PLATFORM"] = "xcb"
            from PyQt5 import QtWidgets
            return QtWidgets
        import tkinter
        return tkinter
    except (ImportError, ValueError) as e:
        sys.stderr.write("x11-toolkit-peer: cannot load %s (%s): install it with: apt-get install %s\n"
                         % (toolkit, e, PACKAGES[toolkit]))
        sys.exit(3)


def text_of(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8")


def emit(text):
    if text is None:
        sys.stderr.write("x11-toolkit-peer: the toolkit read no text\n")
        sys.exit(1)
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()


def gtk(mode, path):
    Gtk, Gdk = load("gtk")
    clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
    if mode == "own":
        text = text_of(path)
        clipboard.set_text(text, len(text.encode("utf-8")))
        Gdk.Display.get_default().sync()
        print("ready", flush=True)
        Gtk.main()
    elif mode == "store":
        gtk_store(Gtk, Gdk, clipboard, path)
    elif mode == "paste":
        emit(clipboard.wait_for_text())
    else:
        ok, atoms = clipboard.wait_for_targets()
        for a in atoms if ok else []:
            print(a.name())


def gtk_store(Gtk, Gdk, clipboard, path):
    import signal
    import time
    from gi.repository import GLib, GdkPixbuf
    kind, path = path
    if kind == "image":
        clipboard.set_image(GdkPixbuf.Pixbuf.new_from_file(path))
    else:
        text = text_of(path)
        clipboard.set_text(text, len(text.encode("utf-8")))
    # Every target may be saved (GTK then sends SAVE_TARGETS with them all).
    clipboard.set_can_store(None)
    Gdk.Display.get_default().sync()

    def store():
        start = time.monotonic()
        clipboard.store()
        print("stored in %d ms" % ((time.monotonic() - start) * 1000), flush=True)
        Gtk.main_quit()
        return GLib.SOURCE_REMOVE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, store)
    print("ready", flush=True)
    Gtk.main()


def qt(mode, path):
    QtWidgets = load("qt")
    app = QtWidgets.QApplication(["x11-toolkit-peer"])
    clipboard = app.clipboard()
    if mode == "own":
        clipboard.setText(text_of(path))
        print("ready", flush=True)
        app.exec_()
    elif mode == "paste":
        data = clipboard.mimeData()
        emit(clipboard.text() if data is not None and data.hasText() else None)
    else:
        data = clipboard.mimeData()
        for f in data.formats() if data is not None else []:
            print(f)


def tk(mode, path):
    tkinter = load("tk")
    root = tkinter.Tk()
    root.withdraw()
    if mode == "own":
        root.clipboard_clear()
        root.clipboard_append(text_of(path))
        root.update()
        print("ready", flush=True)
        root.mainloop()
    elif mode == "paste":
        try:
            emit(root.clipboard_get(type="UTF8_STRING"))
        except tkinter.TclError as e:
            sys.stderr.write("x11-toolkit-peer: Tk: %s\n" % e)
            sys.exit(1)
    else:
        for name in root.tk.splitlist(root.selection_get(selection="CLIPBOARD", type="TARGETS")):
            print(name)


def main():
    if len(sys.argv) == 3 and sys.argv[1] in PACKAGES and sys.argv[2] == "check":
        load(sys.argv[1])
        return
    if len(sys.argv) == 5 and sys.argv[1:3] == ["gtk", "store"] and sys.argv[3] in ("text", "image"):
        gtk("store", (sys.argv[3], sys.argv[4]))
        return
    if len(sys.argv) < 3 or sys.argv[1] not in PACKAGES or sys.argv[2] not in ("own", "paste", "targets") \
            or (sys.argv[2] == "own") != (len(sys.argv) == 4):
        sys.exit(__doc__)
    {"gtk": gtk, "qt": qt, "tk": tk}[sys.argv[1]](sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)


if __name__ == "__main__":
    main()
