// MotusStreaming
