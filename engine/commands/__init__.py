"""The ``hauntcheck`` commands, carried out; :mod:`hauntcheck.engine.cli` builds the parser and dispatches to them.

* :mod:`.common` - what every command shares: usage errors, the project's configuration, the
  output format, input files, exit status, game options, pictures;
* :mod:`.verify` - ``verify``, ``lint``, ``replay``, ``upgrade``, ``conform``, ``coverage``;
* :mod:`.play` - ``play``, ``golden``, ``new-haunt``, ``balance``;
* :mod:`.scenarios` - ``dispute``, ``view``, ``report``.

A new command's implementation goes in a module of its own (as ``engine/balance/command.py``) and is
only registered in ``cli.py``'s parser and dispatch.
"""
