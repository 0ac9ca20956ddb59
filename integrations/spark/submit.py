"""The job's entry point for spark-submit, which runs a file rather than a module:

spark-submit --master spark://host:7077 integrations/spark/submit.py score MODEL COHORT -o OUT
"""

from motus_spark.job import main

main()
