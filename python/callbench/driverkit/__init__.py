"""The Python driver kit: the contract (docs/contract.md) written once for Python drivers.

Parts, named as in every language's kit: options, inputs, model, rounds,
serve, outputs, result, errors. A driver is a setup function returning a
``Prepared`` (its model's loop); ``python -m callbench.driverkit <id>`` runs it.
"""
