"""The report: results/report.md and its charts, from one or more runs.

Three rooms. Here, at the top, what the report is put together as: document (report.md,
one section per subject), charts (drawn from the sections' figures), readme (the README's
generated blocks), comparison (what ``callbench compare`` says) and behind (the commits a
run is behind). ``sections/`` holds one module a section (a new section is a file there
and a line in document.py); ``blocks/`` the building blocks every section uses (format,
ratios, claims, the per-call tables, comparable rows, the CSV, the ladder and frames
tables). Blocks import no section and nothing of the top; sections import blocks and
other sections, never the top.
"""
