"""The report: results/report.md and its charts, from one or more runs."""
