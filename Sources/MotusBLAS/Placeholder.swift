// MotusBLAS
import COpenBLAS
