"""callbench: cost per call of a small trained model across languages and runtimes."""

__version__ = "0.1.0"
