"""The report's sections, one module each: what a section says, computed from the records.

They import ``report.blocks`` and each other, never the report's top (document, charts,
readme), which puts them together.
"""
