"""The pocket app (issue #29): the table companion on one phone, offline and
installable, with no server: darkcity's own engine runs in the phone's browser
(Pyodide in a Web Worker).

:mod:`~darkcity.pocket.build` writes the static site (``build_site``): the app
shell, the web app manifest, the service worker, the pinned Pyodide runtime
checked against the hashes in ``pyodide.sha256``, and a pure-Python wheel of what
the browser needs of darkcity. :mod:`~darkcity.pocket.worker` is the worker's
Python side. See ``docs/pocket.md``.
"""
