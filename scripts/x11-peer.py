#!/usr/bin/python3
"""Adversarial X11 selection peers for pb's tests (python3-xlib).

Usage: x11-peer.py MODE [ARGS]   (DISPLAY names the display)

  mute              own CLIPBOARD and never answer a request; print
                    "request TARGET" for each
  string-only TEXT  own CLIPBOARD offering only TARGETS and STRING (Latin-1)
  compound-only     own CLIPBOARD offering only TARGETS and COMPOUND_TEXT
                    ("hé日本!", with an escape to JIS X 0208)
  no-targets TEXT   own CLIPBOARD, refuse TARGETS and serve UTF8_STRING
  text-owner NAME TEXT
                    own the selection NAME offering TARGETS and UTF8_STRING
  text-reader NAME  print the UTF8_STRING of the selection NAME
  secret TEXT       own CLIPBOARD as a password manager does: offer
                    UTF8_STRING and x-kde-passwordManagerHint = "secret";
                    print "request TARGET" for each request
  stall SIZE        own CLIPBOARD, answer UTF8_STRING by INCR, send one
                    chunk, then go silent
  multiple          ask the CLIPBOARD owner for MULTIPLE
                    [UTF8_STRING,P1, image/png,P2, TARGETS,P3] and print the
                    result as lines "P1 <type> <hex>" etc.
  stale             ask for UTF8_STRING with a time 1000 ms before the
                    owner's TIMESTAMP; print "refused" or "served"
  stall-reader      ask for the CLIPBOARD's UTF8_STRING, let the first INCR
                    chunk come and never acknowledge it; print "ready"
  vanish            create a window, ask for UTF8_STRING into it, and
                    destroy the window at once
  obsolete          ask for UTF8_STRING naming no property (an obsolete
                    requestor); print the property the notify names and
                    the data found there
  mute-manager      own CLIPBOARD_MANAGER and never answer
  bogus             send the CLIPBOARD owner a SelectionRequest naming a
                    window that does not exist; print "sent"
  steal NAME        wait for the next window another program creates (a
                    pb copy's), then, holding the server, let the clock
                    run on past that program's timestamp and take the
                    selection NAME: the program's own claim, made with the
                    older time, is ignored; print "stole"
  manager           a clipboard manager: own CLIPBOARD_MANAGER; on
                    SAVE_TARGETS fetch the CLIPBOARD's UTF8_STRING, take
                    CLIPBOARD and serve it; print "saved <n> bytes"
  save-targets TEXT own CLIPBOARD offering UTF8_STRING and text/html (TEXT
                    in both), then ask the manager to save UTF8_STRING only
                    (SAVE_TARGETS with that list), serving while it waits;
                    print "request TARGET" for each request, "lost" on
                    SelectionClear and "answer saved|refused|none" for
                    the reply (none: no reply in 5 s); then stay until
                    killed
  ask-manager       ask the CLIPBOARD_MANAGER owner for TARGETS, TIMESTAMP
                    and MULTIPLE [TARGETS,P1, TIMESTAMP,P2, STRING,P3];
                    print "targets NAME...", "timestamp N" and
                    "multiple P1 P2 P3" with each property's atom or None

Owners print "ready" on standard output once they own the selection.
"""
import select
import sys
import time

from Xlib import X, Xatom, display
from Xlib.protocol import event


def atom(d, name):
    return d.intern_atom(name)


def own(d, w, name="CLIPBOARD"):
    clip = atom(d, name)
    w.change_property(Xatom.WM_NAME, Xatom.STRING, 8, b"", X.PropModeAppend)
    d.flush()
    while True:
        e = d.next_event()
        if e.type == X.PropertyNotify:
            ts = e.time
            break
    w.set_selection_owner(clip, ts)
    d.flush()
    if d.get_selection_owner(clip) != w:
        print("not owner", flush=True)
        sys.exit(1)
    print("ready", flush=True)
    return clip, ts


def reply(d, req, prop):
    ev = event.SelectionNotify(time=req.time, requestor=req.requestor, selection=req.selection,
                               target=req.target, property=prop)
    req.requestor.send_event(ev)
    d.flush()


def serve(d, w, offers, list_targets=True, selection="CLIPBOARD", log=False):
    """Owns `selection` and serves `offers` ({target: (type, bytes)}) and,
    when `list_targets`, TARGETS; refuses everything else. With `log`,
    prints "request TARGET" for each request."""
    clip, ts = own(d, w, selection)
    targets = atom(d, "TARGETS")
    offered = {atom(d, name): (atom(d, kind), data) for name, (kind, data) in offers.items()}
    while True:
        e = d.next_event()
        if e.type == X.SelectionClear:
            return
        if e.type != X.SelectionRequest:
            continue
        if log:
            print("request", d.get_atom_name(e.target), flush=True)
        prop = e.property or e.target
        if e.target == targets and list_targets:
            e.requestor.change_property(prop, Xatom.ATOM, 32, [targets] + list(offered))
            reply(d, e, prop)
        elif e.target in offered:
            kind, data = offered[e.target]
            e.requestor.change_property(prop, kind, 8, data)
            reply(d, e, prop)
        else:
            reply(d, e, X.NONE)


def serve_mute(d, w):
    own(d, w)
    while True:
        e = d.next_event()
        if e.type == X.SelectionClear:
            return
        if e.type == X.SelectionRequest:
            print("request", d.get_atom_name(e.target), flush=True)


def stall_reader(d, w):
    """Asks for the CLIPBOARD's UTF8_STRING by INCR, lets the first chunk
    come and never acknowledges it (never deletes the property), its
    window alive."""
    prop = atom(d, "PB_STALLED")
    w.convert_selection(atom(d, "CLIPBOARD"), atom(d, "UTF8_STRING"), prop, X.CurrentTime)
    d.flush()
    e = wait_notify(d, w)
    if e is None or e.property == X.NONE:
        sys.exit("refused")
    if w.get_full_property(prop, X.AnyPropertyType).property_type != atom(d, "INCR"):
        sys.exit("not INCR")
    w.delete_property(prop)  # starts the transfer
    d.flush()
    while True:
        pe = d.next_event()
        if pe.type == X.PropertyNotify and pe.atom == prop and pe.state == X.PropertyNewValue:
            break
    print("ready", flush=True)
    while True:
        d.next_event()


def serve_stall(d, w, size):
    clip, ts = own(d, w)
    targets, utf8, incr = atom(d, "TARGETS"), atom(d, "UTF8_STRING"), atom(d, "INCR")
    while True:
        e = d.next_event()
        if e.type == X.SelectionClear:
            return
        if e.type != X.SelectionRequest:
            continue
        prop = e.property or e.target
        if e.target == targets:
            e.requestor.change_property(prop, Xatom.ATOM, 32, [targets, utf8])
            reply(d, e, prop)
        elif e.target == utf8:
            e.requestor.change_attributes(event_mask=X.PropertyChangeMask)
            e.requestor.change_property(prop, incr, 32, [size])
            reply(d, e, prop)
            sent = False
            while not sent:
                pe = d.next_event()
                if pe.type == X.PropertyNotify and pe.state == X.PropertyDelete and pe.atom == prop:
                    e.requestor.change_property(prop, utf8, 8, b"x" * 1000)
                    d.flush()
                    sent = True
            while True:  # silent from now on
                d.next_event()
        else:
            reply(d, e, X.NONE)


def next_event_until(d, end):
    """The next event, or None at time `end` (waits on the connection)."""
    while not d.pending_events():
        left = end - time.time()
        if left <= 0 or not select.select([d.fileno()], [], [], left)[0]:
            return None
    return d.next_event()


def wait_notify(d, w, limit=5.0):
    end = time.time() + limit
    while True:
        e = next_event_until(d, end)
        if e is None or e.type == X.SelectionNotify:
            return e


def read_prop(w, prop):
    p = w.get_full_property(prop, X.AnyPropertyType, sizehint=1 << 20)
    return p


def ask_multiple(d, w):
    clip = atom(d, "CLIPBOARD")
    names = ["UTF8_STRING", "image/png", "TARGETS"]
    props = [atom(d, "PB_P%d" % (i + 1)) for i in range(3)]
    pairs = []
    for n, p in zip(names, props):
        pairs += [atom(d, n), p]
    param = atom(d, "PB_MULTI")
    w.change_property(param, atom(d, "ATOM_PAIR"), 32, pairs)
    d.flush()
    w.convert_selection(clip, atom(d, "MULTIPLE"), param, X.CurrentTime)
    d.flush()
    e = wait_notify(d, w)
    if e is None:
        print("timeout")
        return
    print("notify target=%s property=%s" % (d.get_atom_name(e.target), e.property and d.get_atom_name(e.property)))
    result = read_prop(w, param)
    got = list(result.value) if result else []
    for i in range(3):
        p = got[2 * i + 1] if len(got) > 2 * i + 1 else 0
        label = "P%d" % (i + 1)
        if p == 0:
            print(label, "none")
            continue
        v = read_prop(w, p)
        if v is None:
            print(label, "missing")
        elif v.format == 32:
            print(label, d.get_atom_name(v.property_type), " ".join(d.get_atom_name(a) for a in v.value))
        else:
            print(label, d.get_atom_name(v.property_type), bytes(v.value).hex())


def ask_text(d, w, name):
    w.convert_selection(atom(d, name), atom(d, "UTF8_STRING"), atom(d, "PB_TEXT"), X.CurrentTime)
    d.flush()
    e = wait_notify(d, w)
    if e is None or e.property == X.NONE:
        sys.exit("refused")
    sys.stdout.write(bytes(read_prop(w, e.property).value).decode())


def ask_stale(d, w):
    clip = atom(d, "CLIPBOARD")
    prop = atom(d, "PB_STALE")
    w.convert_selection(clip, atom(d, "TIMESTAMP"), prop, X.CurrentTime)
    d.flush()
    e = wait_notify(d, w)
    ts = read_prop(w, prop).value[0]
    for t, label in ((ts - 1000, "old"), (X.CurrentTime, "current")):
        w.delete_property(prop)
        w.convert_selection(clip, atom(d, "UTF8_STRING"), prop, t)
        d.flush()
        e = wait_notify(d, w)
        print(label, "served" if e is not None and e.property != X.NONE else "refused")


def ask_obsolete(d, w):
    clip, utf8 = atom(d, "CLIPBOARD"), atom(d, "UTF8_STRING")
    w.convert_selection(clip, utf8, X.NONE, X.CurrentTime)
    d.flush()
    e = wait_notify(d, w)
    if e is None or e.property == X.NONE:
        print("refused")
        return
    v = read_prop(w, e.property)
    print(d.get_atom_name(e.property), bytes(v.value).decode())


def bogus(d, w):
    clip = atom(d, "CLIPBOARD")
    owner = d.get_selection_owner(clip)
    ev = event.SelectionRequest(time=X.CurrentTime, owner=owner, requestor=0x7ffffff,
                                selection=clip, target=atom(d, "UTF8_STRING"),
                                property=atom(d, "PB_BOGUS"))
    owner.send_event(ev)
    d.sync()
    print("sent")


def vanish(d):
    clip = atom(d, "CLIPBOARD")
    root = d.screen().root
    for _ in range(5):
        w = root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
        w.convert_selection(clip, atom(d, "UTF8_STRING"), atom(d, "PB_GONE"), X.CurrentTime)
        w.destroy()
        d.sync()
    print("done")


def steal(d, w, name):
    sel = atom(d, name)
    d.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
    d.sync()
    print("ready", flush=True)
    while d.next_event().type != X.CreateNotify:
        pass
    # The creator took its time when it created the window; its requests
    # wait while the server is grabbed.
    d.grab_server()
    d.sync()
    time.sleep(0.005)
    w.set_selection_owner(sel, X.CurrentTime)
    d.ungrab_server()
    d.sync()
    print("stole", flush=True)
    while True:
        e = d.next_event()
        if e.type == X.SelectionRequest:
            reply(d, e, X.NONE)


def run_manager(d, w):
    mgr, clip = atom(d, "CLIPBOARD_MANAGER"), atom(d, "CLIPBOARD")
    targets, utf8, save = atom(d, "TARGETS"), atom(d, "UTF8_STRING"), atom(d, "SAVE_TARGETS")
    w.change_property(Xatom.WM_NAME, Xatom.STRING, 8, b"", X.PropModeAppend)
    d.flush()
    while True:
        e = d.next_event()
        if e.type == X.PropertyNotify:
            ts = e.time
            break
    w.set_selection_owner(mgr, ts)
    d.flush()
    print("ready", flush=True)
    saved = None
    while True:
        e = d.next_event()
        if e.type != X.SelectionRequest:
            continue
        prop = e.property or e.target
        if e.selection == mgr and e.target == save:
            helper = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
            p = atom(d, "PB_MANAGER")
            helper.convert_selection(clip, utf8, p, X.CurrentTime)
            d.flush()
            n = wait_notify_for(d, helper)
            value = read_prop(helper, p) if n is not None and n.property != X.NONE else None
            saved = bytes(value.value) if value is not None else b""
            w.set_selection_owner(clip, X.CurrentTime)
            e.requestor.change_property(prop, atom(d, "NULL"), 32, [])
            reply(d, e, prop)
            print("saved %d bytes" % len(saved), flush=True)
        elif e.selection == clip and saved is not None and e.target == targets:
            e.requestor.change_property(prop, Xatom.ATOM, 32, [targets, utf8])
            reply(d, e, prop)
        elif e.selection == clip and saved is not None and e.target == utf8:
            e.requestor.change_property(prop, utf8, 8, saved)
            reply(d, e, prop)
        else:
            reply(d, e, X.NONE)


def save_targets(d, w, text):
    clip, ts = own(d, w)
    mgr, targets, utf8 = atom(d, "CLIPBOARD_MANAGER"), atom(d, "TARGETS"), atom(d, "UTF8_STRING")
    html, save, prop = atom(d, "text/html"), atom(d, "SAVE_TARGETS"), atom(d, "PB_SAVE_LIST")
    w.change_property(prop, Xatom.ATOM, 32, [utf8])
    w.convert_selection(mgr, save, prop, ts)
    d.flush()
    answer, end = "none", time.time() + 5
    while True:
        e = next_event_until(d, end)
        if e is None:
            break
        if e.type == X.SelectionClear:
            print("lost", flush=True)
        elif e.type == X.SelectionNotify and e.selection == mgr:
            answer = "saved" if e.property != X.NONE else "refused"
            break
        elif e.type == X.SelectionRequest:
            print("request", d.get_atom_name(e.target), flush=True)
            p = e.property or e.target
            if e.target == targets:
                e.requestor.change_property(p, Xatom.ATOM, 32, [targets, utf8, html])
                reply(d, e, p)
            elif e.target in (utf8, html):
                e.requestor.change_property(p, e.target, 8, text.encode())
                reply(d, e, p)
            else:
                reply(d, e, X.NONE)
    print("answer", answer, flush=True)
    while True:
        e = d.next_event()
        if e.type == X.SelectionClear:
            print("lost", flush=True)
        elif e.type == X.SelectionRequest:
            reply(d, e, X.NONE)


def ask_manager(d, w):
    mgr = atom(d, "CLIPBOARD_MANAGER")
    names = {}
    for name in ("TARGETS", "TIMESTAMP"):
        p = atom(d, "PB_ASK_" + name)
        w.convert_selection(mgr, atom(d, name), p, X.CurrentTime)
        d.flush()
        n = wait_notify(d, w)
        value = read_prop(w, p) if n is not None and n.property != X.NONE else None
        names[name] = list(value.value) if value is not None else []
    print("targets", " ".join(d.get_atom_name(a) for a in names["TARGETS"]), flush=True)
    print("timestamp", " ".join(str(v) for v in names["TIMESTAMP"]), flush=True)
    props = [atom(d, "PB_M%d" % i) for i in (1, 2, 3)]
    pairs = [atom(d, "TARGETS"), props[0], atom(d, "TIMESTAMP"), props[1], Xatom.STRING, props[2]]
    m = atom(d, "PB_MULTI")
    w.change_property(m, atom(d, "ATOM_PAIR"), 32, pairs)
    w.convert_selection(mgr, atom(d, "MULTIPLE"), m, X.CurrentTime)
    d.flush()
    n = wait_notify(d, w)
    value = read_prop(w, m) if n is not None and n.property != X.NONE else None
    got = list(value.value) if value is not None else []
    print("multiple", " ".join(d.get_atom_name(a) if a else "None" for a in got[1::2]), flush=True)


def wait_notify_for(d, w, limit=5.0):
    """Waits for a SelectionNotify for window w, answering nothing else."""
    end = time.time() + limit
    while True:
        e = next_event_until(d, end)
        if e is None or (e.type == X.SelectionNotify and e.requestor == w):
            return e


def main():
    d = display.Display()
    root = d.screen().root
    w = root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, event_mask=X.PropertyChangeMask)
    mode = sys.argv[1]
    if mode == "mute":
        serve_mute(d, w)
    elif mode == "string-only":
        serve(d, w, {"STRING": ("STRING", sys.argv[2].encode("latin-1"))})
    elif mode == "compound-only":
        # "hé日本!": Latin-1 in GR, then JIS X 0208 designated to G1.
        ct = b"h\xe9\x1b$)B\xc6\xfc\xcb\xdc\x1b-A!"
        serve(d, w, {"COMPOUND_TEXT": ("COMPOUND_TEXT", ct)})
    elif mode == "text-owner":
        serve(d, w, {"UTF8_STRING": ("UTF8_STRING", sys.argv[3].encode())}, selection=sys.argv[2])
    elif mode == "secret":
        serve(d, w, {"UTF8_STRING": ("UTF8_STRING", sys.argv[2].encode()),
                     "x-kde-passwordManagerHint": ("x-kde-passwordManagerHint", b"secret")}, log=True)
    elif mode == "text-reader":
        ask_text(d, w, sys.argv[2])
    elif mode == "no-targets":
        serve(d, w, {"UTF8_STRING": ("UTF8_STRING", sys.argv[2].encode())}, list_targets=False)
    elif mode == "stall":
        serve_stall(d, w, int(sys.argv[2]))
    elif mode == "multiple":
        ask_multiple(d, w)
    elif mode == "stale":
        ask_stale(d, w)
    elif mode == "obsolete":
        ask_obsolete(d, w)
    elif mode == "mute-manager":
        w.change_property(Xatom.WM_NAME, Xatom.STRING, 8, b"", X.PropModeAppend)
        d.flush()
        while True:
            e = d.next_event()
            if e.type == X.PropertyNotify:
                break
        w.set_selection_owner(atom(d, "CLIPBOARD_MANAGER"), e.time)
        d.flush()
        print("ready", flush=True)
        while True:
            d.next_event()
    elif mode == "bogus":
        bogus(d, w)
    elif mode == "manager":
        run_manager(d, w)
    elif mode == "save-targets":
        save_targets(d, w, sys.argv[2])
    elif mode == "ask-manager":
        ask_manager(d, w)
    elif mode == "steal":
        steal(d, w, sys.argv[2])
    elif mode == "vanish":
        vanish(d)
    elif mode == "stall-reader":
        stall_reader(d, w)
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
