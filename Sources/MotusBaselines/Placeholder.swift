// MotusBaselines
