"""Start a site file from what a team already has: NetBox (``netbox``) or a spreadsheet
(``csv``); and write a site's racks back out (``export``).

Each importer turns its source into a plain site document (the same shape as a YAML site file)
plus a mapping report of what was skipped or guessed; :mod:`facility.model.load` validates it
like any other file. The command-line glue lives in ``*_cli.py`` modules, which import nothing
heavy until a command runs (``facility check`` start-up stays small).
"""
