"""The report's building blocks: how figures are written (format), ratios and when a claim
may be made (ratios, claims), the per-call tables, which rows of two runs compare
(comparable), figures.csv, and the ladder and frames tables.

They import no section and nothing of the report's top.
"""
