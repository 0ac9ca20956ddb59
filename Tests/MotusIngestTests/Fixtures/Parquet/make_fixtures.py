"""Writes the Parquet fixtures of ParquetTableTests with pyspark, and beside each the values
it wrote as JSON. Every value is synthetic (a few made-up windows), not from a recording.

    /path/to/venv-with-pyspark/bin/python Tests/MotusIngestTests/Fixtures/Parquet/make_fixtures.py

(scripts/spark-setup.sh makes such a venv in .venv-spark.) Each single-file fixture is the one
part file Spark wrote for a frame of one partition, renamed; folders keep Spark's layout
(`part-*.parquet`, `_SUCCESS`, `.crc` files) with fixed part names.
"""

import glob
import json
import os
import shutil
import struct
import tempfile

from pyspark.sql import SparkSession
from pyspark.sql import types as T

HERE = os.path.dirname(os.path.abspath(__file__))

SCHEMA = T.StructType(
    [
        T.StructField("recording", T.StringType(), False),
        T.StructField("session", T.StringType(), True),
        T.StructField("subject", T.StringType(), True),
        T.StructField("label", T.StringType(), True),
        T.StructField("purity", T.DoubleType(), True),
        T.StructField("start_s", T.DoubleType(), True),
        T.StructField("acc_mean", T.DoubleType(), True),
        T.StructField("gyro_energy", T.FloatType(), True),
        T.StructField("steps", T.IntegerType(), True),
        T.StructField("frames", T.LongType(), True),
        T.StructField("placement", T.StringType(), True),
    ]
)

# Synthetic windows: labels repeat (a dictionary-encoded column), nulls in every nullable
# column, an empty string beside a null, non-ASCII text, extreme and negative-zero doubles.
ROWS = [
    ("rec-a.csv", "s1", "p01", "walking", 1.0, 0.0, 0.981, 1.5, 3, 128),
    ("rec-a.csv", "s1", "p01", "walking", 1.0, 1.28, -0.0, 2.25, 4, 256),
    ("rec-a.csv", "s1", "p01", "running", 0.75, 2.56, 1e-300, None, None, 384),
    ("rec-b.csv", None, "p02", "running", 1.0, 0.0, 1e300, 0.1, 7, -5),
    ("rec-b.csv", "s2", None, None, None, 1.28, None, 3.0, -2, 2**40),
    ("rec-ü.csv", "s3", "", "gehen-ü", 0.5, 2.56, -123.456, 4.5, 0, None),
    ("rec-ü.csv", "s3", "", "walking", 1.0, 3.84, 2.0**-1074, -1e30, 2**31 - 1, -(2**53)),
]

# The last column is null in every row (no dictionary page, pages of nulls only).
ROWS = [row + (None,) for row in ROWS]

# A second frame of the same columns, for the second part of a folder.
MORE_ROWS = [
    ("rec-c.csv", "s4", "p03", "sitting", 1.0, 0.0, 0.5, 0.25, 1, 1),
    ("rec-c.csv", "s4", "p03", "sitting", 1.0, 1.28, None, 0.5, 2, 2),
    ("rec-c.csv", "s4", "p03", "standing", 0.25, 2.56, 0.75, None, 3, None),
]
MORE_ROWS = [row + (None,) for row in MORE_ROWS]


def expected(rows, names):
    """The values as a reader must give them, numbers as text (Python's shortest repr, which
    reads back to the same double): floats as the float32 Spark stored."""
    columns = {}
    for k, field in enumerate(SCHEMA.fields):
        if field.name not in names:
            continue
        values = [row[k] for row in rows]
        if isinstance(field.dataType, T.FloatType):
            values = [None if v is None else struct.unpack("<f", struct.pack("<f", v))[0]
                      for v in values]
        elif isinstance(field.dataType, (T.IntegerType, T.LongType, T.DoubleType)):
            values = [None if v is None else float(v) for v in values]
        if not isinstance(field.dataType, T.StringType):
            values = [None if v is None else repr(v) for v in values]
        columns[field.name] = values
    return {"columns": names, "values": columns}


def write_json(name, rows, names=None):
    names = names or [f.name for f in SCHEMA.fields]
    with open(os.path.join(HERE, name), "w") as out:
        json.dump(expected(rows, names), out, indent=1, ensure_ascii=False)
        out.write("\n")


def spark_write(frame, options):
    """Writes `frame` as one Parquet folder in a temporary place and returns the folder."""
    folder = tempfile.mkdtemp(prefix="motus-parquet-")
    target = os.path.join(folder, "out")
    writer = frame.coalesce(1).write
    for key, value in options.items():
        writer = writer.option(key, value)
    writer.parquet(target)
    return target


def the_part(folder):
    (part,) = glob.glob(os.path.join(folder, "part-*.parquet"))
    return part


def single(spark, name, rows, schema=SCHEMA, drop=(), **options):
    folder = spark_write(spark.createDataFrame(rows, schema).drop(*drop), options)
    shutil.copyfile(the_part(folder), os.path.join(HERE, name))
    shutil.rmtree(os.path.dirname(folder))


def folder_of_parts(spark, name, frames):
    """A folder as Spark writes it, one part per frame, with fixed part names."""
    target = os.path.join(HERE, name)
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    for k, frame in enumerate(frames):
        written = spark_write(frame, {})
        part = f"part-{k:05d}-fixture.c000.snappy.parquet"
        shutil.copyfile(the_part(written), os.path.join(target, part))
        (crc,) = glob.glob(os.path.join(written, ".part-*.crc"))
        shutil.copyfile(crc, os.path.join(target, f".{part}.crc"))
        shutil.rmtree(os.path.dirname(written))
    open(os.path.join(target, "_SUCCESS"), "w").close()


def write_readable(spark):
    """The fixtures the reader reads, each with the values it must give as JSON."""
    # What `motus_spark` writes by default: snappy, data page v1, dictionaries.
    single(spark, "windows-snappy.parquet", ROWS)
    single(spark, "windows-none.parquet", ROWS, compression="none")
    # Data page v2 (without the integers, which v2 writes DELTA_BINARY_PACKED, refused), and
    # pages of at most two rows.
    integers = ("steps", "frames")
    single(spark, "windows-v2.parquet", ROWS, drop=integers, **{"parquet.writer.version": "v2"})
    write_json("windows-v2.json", ROWS, [f.name for f in SCHEMA.fields if f.name not in integers])
    single(
        spark,
        "windows-pages.parquet",
        ROWS,
        **{
            "parquet.page.row.count.limit": "2",
            "parquet.page.size.row.check.min": "1",
            "parquet.page.size.row.check.max": "1",
        },
    )
    # No dictionaries: every column PLAIN.
    single(spark, "windows-plain.parquet", ROWS, **{"parquet.enable.dictionary": "false"})
    write_json("windows.json", ROWS)

    folder_of_parts(
        spark,
        "two-parts",
        [spark.createDataFrame(ROWS, SCHEMA), spark.createDataFrame(MORE_ROWS, SCHEMA)],
    )
    write_json("two-parts.json", ROWS + MORE_ROWS)


def write_refused(spark):
    """What the reader refuses."""
    single(spark, "windows-gzip.parquet", ROWS, compression="gzip")
    single(
        spark,
        "windows-delta.parquet",
        ROWS,
        **{"parquet.writer.version": "v2", "parquet.enable.dictionary": "false"},
    )
    nested = T.StructType(
        [
            T.StructField("recording", T.StringType(), False),
            T.StructField("axes", T.ArrayType(T.DoubleType()), True),
        ]
    )
    single(spark, "nested.parquet", [("rec-a.csv", [0.1, 0.2]), ("rec-b.csv", None)], nested)
    renamed = T.StructType(
        [T.StructField("quality" if f.name == "purity" else f.name, f.dataType, f.nullable)
         for f in SCHEMA.fields]
    )
    folder_of_parts(
        spark,
        "mixed-schemas",
        [spark.createDataFrame(ROWS, SCHEMA), spark.createDataFrame(MORE_ROWS, renamed)],
    )


def main():
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("motus parquet fixtures")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    write_readable(spark)
    write_refused(spark)
    spark.stop()


if __name__ == "__main__":
    main()
