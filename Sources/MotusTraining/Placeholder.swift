// MotusTraining
