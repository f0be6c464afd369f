"""How a driver program of each language starts, and whether it is built here.

One module per language; each gives the registry a constructor that turns a
driver's id, runtime and artifact into a ``DriverSpec``.
"""
