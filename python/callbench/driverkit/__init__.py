"""The Python driver kit: the contract (docs/contract.md) written once for Python drivers.

Parts, named as in every language's kit: options, inputs, model, rounds,
serve, outputs, result (errors and argument parsing are callbench.command_line's,
shared with every command). A driver is a setup function returning a ``Model``
(its model's loop); ``python -m callbench.driverkit <id> <module:function>`` runs it.
The kit imports neither the registry nor the language specs: the harness passes the entry.
"""
