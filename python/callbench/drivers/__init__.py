"""Python drivers. ``python -m callbench.drivers <driver-id> <contract options>`` runs one."""
