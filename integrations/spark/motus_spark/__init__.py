"""Motus on Apache Spark: the `motus` binary as the per-recording kernel of a cohort job."""
