package io.paynotify.simulator;

public final class Main {
    public static void main(String[] args) {
        System.out.println("paynotify-simulator");
    }
}
