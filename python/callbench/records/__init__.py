"""Result records: one typed record for drivers and kernels; its schema, files and statistics."""
