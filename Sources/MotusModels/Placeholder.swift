// MotusModels
