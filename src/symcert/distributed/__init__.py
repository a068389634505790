"""Dask: differential campaigns and partitioned exploration spread over workers."""
