#!/usr/bin/env python3
# Used by scripts/drag_and_drop.sh to test dropping files on the viewer under Xvfb with a real
# X11 drag (XDND). Needs python3-gi and gir1.2-gtk-3.0 (apt).
# A minimal X11 drag source: a window whose button drags the given files (text/uri-list).
import sys, gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gtk, Gdk
uris = [ "file://" + p for p in sys.argv[1:] ]
win = Gtk.Window(title="dragsource")
button = Gtk.Button(label="DRAG ME")
button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
button.drag_source_add_uri_targets()
def get_data(widget, context, data, info, time):
    data.set_uris(uris)
button.connect("drag-data-get", get_data)
win.add(button)
win.set_default_size(200, 100)
win.move(1200, 750)
win.connect("destroy", Gtk.main_quit)
win.show_all()
Gtk.main()
