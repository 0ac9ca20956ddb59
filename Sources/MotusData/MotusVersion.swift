/// The toolkit's version, printed by `motus --version` and written into model files.
public enum MotusVersion {
  public static let string = "0.1.0"
}
