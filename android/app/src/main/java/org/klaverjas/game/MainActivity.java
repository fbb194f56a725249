package org.klaverjas.game;

import android.os.Bundle;
import android.view.WindowInsets;
import android.view.WindowInsetsController;
import android.view.WindowManager;

import com.google.androidgamesdk.GameActivity;

/**
 * The whole app: GameActivity runs the game's Rust library, whose
 * android_main Bevy's #[bevy_main] provides. The system bars are hidden
 * while the game has focus and come back with a swipe from the edge; the
 * game keeps clear of the camera's cut-out and the gesture bar itself.
 */
public class MainActivity extends GameActivity {
    static {
        System.loadLibrary("klaverjas_mobile");
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        // Draw the felt to the screen's edges, camera cut-out included; the
        // game keeps its cards and words out of the cut-out's band itself.
        getWindow().getAttributes().layoutInDisplayCutoutMode =
                WindowManager.LayoutParams.LAYOUT_IN_DISPLAY_CUTOUT_MODE_SHORT_EDGES;
        super.onCreate(savedInstanceState);
    }

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
        if (hasFocus) {
            WindowInsetsController bars = getWindow().getInsetsController();
            if (bars != null) {
                bars.hide(WindowInsets.Type.systemBars());
                bars.setSystemBarsBehavior(WindowInsetsController.BEHAVIOR_SHOW_TRANSIENT_BARS_BY_SWIPE);
            }
        }
    }
}
