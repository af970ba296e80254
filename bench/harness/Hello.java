// Start-up probe: the smallest program, run plain and with the agent to measure the agent's start-up cost.
public class Hello {
    public static void main(String[] args) {
        System.out.println("hello");
    }
}
